import type { BallotsResult, Place, WaitingRoom } from '@forkvote/contracts';
import { describe, expect, it } from 'vitest';
import { HOST_CLOSED_NOTICE, initialRoomState, roomReducer, RoomState, routeFor } from './room-state';

const room: WaitingRoom = {
  waitingRoomId: 'ABC123',
  users: [{ userId: 'host', userName: 'Hana' }],
  createdBy: { userId: 'host', userName: 'Hana' },
  state: 'waiting',
  batchIndex: 0,
  placesCount: 0,
};
const place = (id: string): Place => ({
  id,
  displayName: { text: id },
  formattedAddress: '',
  shortFormattedAddress: '',
  googleMapsUri: '',
  types: [],
});
const ballots: BallotsResult = { batchIndex: 0, voterCount: 1, ballots: [], winners: [] };

const created = roomReducer(initialRoomState, {
  type: 'created',
  token: 't',
  waitingRoom: room,
  userId: 'host',
  userName: 'Hana',
});
const joined = roomReducer(initialRoomState, {
  type: 'joined',
  waitingRoom: room,
  userId: 'guest',
  userName: 'Gus',
});

describe('waiting room state (SPEC §4)', () => {
  it('creating resets everything, then makes the user host with token, room and ids', () => {
    const dirty: RoomState = { ...created, voting: { ...created.voting, voted: true, batchIndex: 3 } };
    const starting = roomReducer(dirty, { type: 'createStarted' });
    expect(starting.room).toMatchObject({ isLoading: true, token: null, waitingRoom: null });
    expect(starting.voting.batchIndex).toBe(0);
    expect(created.room).toMatchObject({
      isHost: true,
      token: 't',
      userId: 'host',
      userName: 'Hana',
      waitingRoom: room,
    });
  });

  it('joining stores room and ids with isHost false', () => {
    expect(joined.room).toMatchObject({
      isHost: false,
      userId: 'guest',
      userName: 'Gus',
      waitingRoom: room,
      token: null,
    });
  });

  it('leaving clears the room, ids and host flag', () => {
    const left = roomReducer(created, { type: 'left' });
    expect(left.room).toMatchObject({
      waitingRoom: null,
      userId: null,
      userName: null,
      token: null,
      isHost: false,
      exitTo: '/',
    });
    expect(left.voting).toEqual(initialRoomState.voting);
  });

  it('leaving with a notice keeps it until it is seen', () => {
    const notice = { title: 'No more places', message: 'None left.' };
    const left = roomReducer(created, { type: 'left', notice });
    expect(left.room.notice).toEqual(notice);
    expect(roomReducer(left, { type: 'noticeSeen' }).room.notice).toBeNull();
  });

  it('a user-joined event replaces the user list', () => {
    const users = [...room.users, { userId: 'guest', userName: 'Gus' }];
    expect(roomReducer(created, { type: 'userJoined', users }).room.waitingRoom!.users).toEqual(users);
  });

  it('a user-left event of the host clears the room and says so at home; of anyone else replaces the list', () => {
    const closed = roomReducer(joined, { type: 'userLeft', userId: 'host', users: [] });
    expect(closed.room).toEqual({ ...initialRoomState.room, exitTo: '/', notice: HOST_CLOSED_NOTICE });
    expect(closed.voting).toEqual(initialRoomState.voting);
    const after = roomReducer(joined, {
      type: 'userLeft',
      userId: 'other',
      users: [{ userId: 'host', userName: 'Hana' }],
    });
    expect(after.room.waitingRoom!.users).toHaveLength(1);
    expect(after.room.userId).toBe('guest');
  });

  it('a user-left event naming me (another tab left) takes this tab out too, without a notice', () => {
    const out = roomReducer(joined, { type: 'userLeft', userId: 'guest', users: [room.users[0]] });
    expect(out.room).toEqual({ ...initialRoomState.room, exitTo: '/' });
    expect(out.voting).toEqual(initialRoomState.voting);
  });
});

describe('session state (SPEC §4)', () => {
  it('starts waiting at batch 0', () => {
    expect(initialRoomState.voting).toMatchObject({ currentState: 'waiting', batchIndex: 0, voted: false });
  });

  it('the transitioning flag moves the state: false → voting, true → waiting', () => {
    expect(roomReducer(joined, { type: 'setTransitioning', value: false }).voting.currentState).toBe(
      'voting',
    );
    expect(roomReducer(joined, { type: 'setTransitioning', value: true }).voting.currentState).toBe(
      'waiting',
    );
  });

  it('a started-room event stores the places and sets the transitioning flag', () => {
    const requested = roomReducer(joined, { type: 'request', target: 'session' });
    const started = roomReducer(requested, { type: 'roomStarted', places: [place('a')] });
    expect(started.voting).toMatchObject({
      places: [place('a')],
      isTransitioningToVoting: true,
      isLoading: false,
    });
  });

  it('ballots move the state to results', () => {
    expect(roomReducer(joined, { type: 'ballotsSubmitted', ballots }).voting).toMatchObject({
      ballots,
      currentState: 'results',
    });
  });

  it('a next-batch event sets the index, clears voted, usersVoted and ballots, and votes again', () => {
    let state = roomReducer(joined, { type: 'voteSucceeded' });
    state = roomReducer(state, { type: 'userVoted', usersVoted: ['guest'] });
    state = roomReducer(state, { type: 'ballotsSubmitted', ballots });
    state = roomReducer(state, { type: 'nextBatch', nextBatchIndex: 1 });
    expect(state.voting).toMatchObject({
      batchIndex: 1,
      voted: false,
      usersVoted: [],
      ballots: null,
      isTransitioningToVoting: false,
      currentState: 'voting',
    });
  });

  it('a USER_VOTED naming me marks my ballot as cast (another tab sent it); one naming others does not', () => {
    const me = joined.room.userId!;
    expect(roomReducer(joined, { type: 'userVoted', usersVoted: ['someone-else'] }).voting.voted).toBe(false);
    expect(roomReducer(joined, { type: 'userVoted', usersVoted: ['someone-else', me] }).voting).toMatchObject(
      {
        voted: true,
        usersVoted: ['someone-else', me],
      },
    );
  });

  it('a start heard late shows only what is left of the overlay, and none when it is over', () => {
    const fresh = roomReducer(joined, { type: 'roomStarted', places: [place('a')], agoMs: 200 });
    expect(fresh.voting).toMatchObject({
      isTransitioningToVoting: true,
      overlayMs: 2800,
      currentState: 'waiting',
    });
    const late = roomReducer(joined, { type: 'roomStarted', places: [place('a')], agoMs: 15_000 });
    expect(late.voting).toMatchObject({
      isTransitioningToVoting: false,
      overlayMs: 0,
      currentState: 'voting',
    });
    expect(routeFor(late.voting)).toBe('/voting');
    // A server clock a little ahead of the event's is not a reason for a longer overlay.
    const ahead = roomReducer(joined, { type: 'roomStarted', places: [place('a')], agoMs: -900 });
    expect(ahead.voting.overlayMs).toBe(3000);
  });

  it('a kept ballot is sending until the server has it, or refuses it', () => {
    const kept = roomReducer(joined, { type: 'ballotKept' });
    expect(kept.voting).toMatchObject({ sending: true, isLoading: false, error: null });
    expect(roomReducer(kept, { type: 'voteSucceeded' }).voting).toMatchObject({
      sending: false,
      voted: true,
    });
    expect(roomReducer(kept, { type: 'userVoted', usersVoted: ['guest'] }).voting).toMatchObject({
      sending: false,
      voted: true,
    });
    expect(
      roomReducer(kept, { type: 'failed', target: 'session', error: 'You have already voted on this batch.' })
        .voting,
    ).toMatchObject({ sending: false, error: 'You have already voted on this batch.' });
  });

  it('a successful vote sets voted; a failed start clears the transitioning flag', () => {
    expect(roomReducer(joined, { type: 'voteSucceeded' }).voting.voted).toBe(true);
    const transitioning = roomReducer(joined, { type: 'setTransitioning', value: true });
    expect(roomReducer(transitioning, { type: 'startFailed', error: 'x' }).voting).toMatchObject({
      isTransitioningToVoting: false,
      error: 'x',
    });
  });

  it('routes by state: voting → /voting, results or ballots → /results', () => {
    expect(routeFor(initialRoomState.voting)).toBe('/waiting-room');
    expect(routeFor({ ...initialRoomState.voting, currentState: 'voting' })).toBe('/voting');
    expect(routeFor({ ...initialRoomState.voting, currentState: 'results' })).toBe('/results');
  });
});

describe('room state: the actions around a reload and the live connection', () => {
  it('restored rebuilds room and voting from the server snapshot, keeping the connection flag', () => {
    const connected = roomReducer(initialRoomState, { type: 'sseConnected', connected: true });
    const restored = roomReducer(connected, {
      type: 'restored',
      token: 'host-token',
      snapshot: {
        waitingRoom: { ...room, state: 'results', batchIndex: 1 },
        userId: 'host',
        userName: 'Hana',
        isHost: true,
        places: [place('p1')],
        usersVoted: ['host'],
        voted: true,
        ballots,
        lastEventId: '1700000000000-0',
      },
    });
    expect(restored.room).toMatchObject({ token: 'host-token', userId: 'host', isHost: true });
    expect(restored.voting).toMatchObject({
      sseConnected: true,
      batchIndex: 1,
      voted: true,
      usersVoted: ['host'],
      ballots,
      currentState: 'results',
      lastEventId: '1700000000000-0',
    });
  });

  it('a restored closed room counts as waiting', () => {
    const restored = roomReducer(initialRoomState, {
      type: 'restored',
      token: null,
      snapshot: {
        waitingRoom: { ...room, state: 'closed' },
        userId: 'guest',
        userName: 'Gus',
        isHost: false,
        places: [],
        usersVoted: [],
        voted: false,
        ballots: null,
        lastEventId: null,
      },
    });
    expect(restored.voting.currentState).toBe('waiting');
  });

  it('failed stores the error on its target and stops loading', () => {
    const loading = roomReducer(joined, { type: 'request', target: 'session' });
    const failed = roomReducer(loading, {
      type: 'failed',
      target: 'session',
      error: 'Failed to submit votes',
    });
    expect(failed.voting).toMatchObject({ isLoading: false, error: 'Failed to submit votes' });
    expect(failed.room.error).toBeNull();
  });

  it('eventId moves the resume point; sseConnected sets the indicator', () => {
    const withId = roomReducer(joined, { type: 'eventId', id: '1700000000001-0' });
    expect(withId.voting.lastEventId).toBe('1700000000001-0');
    expect(roomReducer(withId, { type: 'sseConnected', connected: false }).voting.sseConnected).toBe(false);
  });

  it('exitHandled clears the pending redirect after leaving', () => {
    const left = roomReducer(joined, { type: 'left' });
    expect(left.room.exitTo).toBe('/');
    expect(roomReducer(left, { type: 'exitHandled' }).room.exitTo).toBeNull();
  });
});

describe('nudges', () => {
  const voting = roomReducer(roomReducer(joined, { type: 'roomStarted', places: [place('a')] }), {
    type: 'setTransitioning',
    value: false,
  });
  const nudge = (userIds: string[], extra: Partial<{ batchIndex: number; sentAt: number }> = {}) => ({
    type: 'nudged' as const,
    userIds,
    hostName: 'Hana',
    batchIndex: 0,
    sentAt: Date.now(),
    ...extra,
  });

  it('shows a nudge to the members it names who have not voted on this batch', () => {
    expect(roomReducer(voting, nudge(['guest'])).voting.nudgedBy).toBe('Hana');
    expect(roomReducer(voting, nudge(['someone-else'])).voting.nudgedBy).toBeNull();
    expect(roomReducer(voting, nudge(['guest'], { batchIndex: 1 })).voting.nudgedBy).toBeNull();
    const voted = roomReducer(voting, { type: 'voteSucceeded' });
    expect(roomReducer(voted, nudge(['guest'])).voting.nudgedBy).toBeNull();
  });

  it('ignores a stale nudge replayed after a reconnect', () => {
    expect(
      roomReducer(voting, nudge(['guest'], { sentAt: Date.now() - 120_000 })).voting.nudgedBy,
    ).toBeNull();
  });

  it('clears the nudge on voting, dismissing, and the next batch', () => {
    const nudged = roomReducer(voting, nudge(['guest']));
    expect(roomReducer(nudged, { type: 'voteSucceeded' }).voting.nudgedBy).toBeNull();
    expect(roomReducer(nudged, { type: 'nudgeSeen' }).voting.nudgedBy).toBeNull();
    expect(roomReducer(nudged, { type: 'nextBatch', nextBatchIndex: 1 }).voting.nudgedBy).toBeNull();
  });
});

describe('decisions (docs/decisions.md)', () => {
  const results = roomReducer(
    roomReducer(created, { type: 'roomStarted', places: [place('a')], agoMs: 5000 }),
    {
      type: 'ballotsSubmitted',
      ballots,
    },
  );
  const questions = [{ placeId: 'a', placeName: 'a', userIds: ['guest'] }];

  it('takes the rule from its event and from the start', () => {
    expect(
      roomReducer(created, { type: 'ruleChanged', decisionRule: 'most' }).room.waitingRoom?.decisionRule,
    ).toBe('most');
    const started = roomReducer(created, { type: 'roomStarted', places: [], decisionRule: 'majority' });
    expect(started.room.waitingRoom?.decisionRule).toBe('majority');
  });

  it('follows a holdout round: asked, answered once each, ended with the new results', () => {
    const asked = roomReducer(results, { type: 'holdoutStarted', batchIndex: 0, questions });
    expect(asked.voting.holdout).toMatchObject({ questions, answered: [], ended: false });
    // A replayed start changes nothing.
    expect(roomReducer(asked, { type: 'holdoutStarted', batchIndex: 0, questions: [] })).toBe(asked);
    const answer = { type: 'holdoutAnswered', batchIndex: 0, placeId: 'a', userId: 'guest' } as const;
    const answered = roomReducer(asked, answer);
    expect(answered.voting.holdout?.answered).toEqual([{ placeId: 'a', userId: 'guest' }]);
    expect(roomReducer(answered, answer)).toBe(answered);
    const result = { ...ballots, winners: ['a'], agreed: ['a'] };
    const ended = roomReducer(answered, { type: 'holdoutEnded', batchIndex: 0, agreed: ['a'], result });
    expect(ended.voting.holdout).toMatchObject({ ended: true, agreed: ['a'] });
    expect(ended.voting.ballots).toBe(result);
    // The next batch starts without it.
    expect(roomReducer(ended, { type: 'nextBatch', nextBatchIndex: 1 }).voting.holdout).toBeNull();
  });

  it('keeps the first draw of a batch, revealed once', () => {
    const pick = { batchIndex: 0, placeId: 'a', candidates: ['a', 'b'] };
    const drawn = roomReducer(results, { type: 'pickDrawn', pick, reveal: true });
    expect(drawn.voting.pick).toEqual({ ...pick, reveal: true });
    expect(roomReducer(drawn, { type: 'pickDrawn', pick: { ...pick, placeId: 'b' }, reveal: true })).toBe(
      drawn,
    );
    expect(roomReducer(drawn, { type: 'pickRevealed' }).voting.pick).toEqual({ ...pick, reveal: false });
    expect(roomReducer(results, { type: 'pickDrawn', pick: { ...pick, batchIndex: 1 }, reveal: true })).toBe(
      results,
    );
  });
});
