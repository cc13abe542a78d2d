import { DECISION_MESSAGES, ROOM_EVENTS, ROOM_MESSAGES } from '@forkvote/contracts';
import {
  EventStreamClient,
  Participant,
  signUp,
  START_SEARCH as START,
  startTestStack,
  TestStack,
} from '@forkvote/testing';
import { randomUUID } from 'node:crypto';

/**
 * How a room decides, through the gateway against the real stack (docs/decisions.md): the holdout round,
 * the three rules on the same ballots, the draw, and the shared plan with its calendar file.
 */
interface Person {
  p: Participant;
  id: string;
  stream: EventStreamClient;
}

interface Room {
  code: string;
  token: string;
  host: Person;
  members: Person[];
  /** The first batch's place ids. */
  batch: string[];
}

describe('decisions: holdouts, rules, the draw and the plan', () => {
  let stack: TestStack;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const bearer = (room: Room) => ({ Authorization: `Bearer ${room.token}` });

  async function listen(p: Participant, code: string, userId: string) {
    const stream = await p.events(code, userId);
    streams.push(stream);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    return stream;
  }

  /** A host and `others` guests in a room, voting started with `rule` (none: the room's default). */
  async function openRoom(others: number, rule?: string): Promise<Room> {
    const h = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const created = await h.post('/api/v1/waiting-room/create', { userId: 'x', userName: 'Hana' });
    expect(created.status).toBe(200);
    const code = created.body.waitingRoom.waitingRoomId as string;
    expect(created.body.waitingRoom.decisionRule).toBe('unanimous');
    await h.untilRelayed(code, created.body.userId, ROOM_EVENTS.userJoined, 1);
    const host: Person = {
      p: h,
      id: created.body.userId,
      stream: await listen(h, code, created.body.userId),
    };
    const members: Person[] = [];
    for (let i = 0; i < others; i++) {
      const p = new Participant(stack.url);
      const joined = await p.patch('/api/v1/waiting-room/join', {
        waitingRoomId: code,
        userName: `Guest ${i}`,
      });
      expect(joined.status).toBe(200);
      members.push({ p, id: joined.body.userId, stream: await listen(p, code, joined.body.userId) });
    }
    const room = { code, token: created.body.token as string, host, members, batch: [] as string[] };
    const started = await h.post(
      '/api/v1/waiting-room/start',
      rule ? { ...START, decisionRule: rule } : START,
      bearer(room),
    );
    expect(started.status).toBe(200);
    room.batch = started.body.places.slice(0, 5).map((p: { id: string }) => p.id);
    const [event] = await members[0].stream.waitFor(ROOM_EVENTS.started);
    expect((event.data as { decisionRule: string }).decisionRule).toBe(rule ?? 'unanimous');
    return room;
  }

  /** Everyone votes: `yes[i]` is the set of batch positions person i (host first) says yes to. */
  async function voteAll(room: Room, yes: number[][]) {
    const people = [room.host, ...room.members];
    for (const [i, person] of people.entries()) {
      const res = await person.p.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: room.code,
        userId: person.id,
        votes: room.batch.map((placeId, at) => ({ placeId, voteType: yes[i].includes(at) ? 'up' : 'down' })),
      });
      expect(res.status).toBe(200);
    }
    const [ballots] = await room.host.stream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    return ballots.data as { winners: string[]; decisionRule: string; voterCount: number };
  }

  const answer = (room: Room, who: Person, placeId: string, reply: 'yes' | 'no', key = randomUUID()) =>
    who.p.patch(
      '/api/v1/waiting-room/holdouts/answer',
      { waitingRoomId: room.code, userId: who.id, placeId, answer: reply },
      { 'Idempotency-Key': key },
    );

  it('turns a near-winner unanimous when every holdout of it says yes', async () => {
    const room = await openRoom(3);
    const [a, b, c] = room.members;
    // Place 0: 3 of 4 (c says no). Place 1: 3 of 4 (b says no). Place 2: 2 of 4. Nobody agrees on all.
    const result = await voteAll(room, [[0, 1, 2], [0, 1, 2], [0], [1]]);
    expect(result.winners).toEqual([]);
    const [p0, p1, p2] = room.batch;

    // Only the host may ask; and a guest's answer before any round is refused.
    expect((await a.p.post('/api/v1/waiting-room/holdouts', { waitingRoomId: room.code })).status).toBe(401);
    const early = await answer(room, c, p0, 'yes');
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(DECISION_MESSAGES.noHoldoutRound);

    const asked = await room.host.p.post(
      '/api/v1/waiting-room/holdouts',
      { waitingRoomId: room.code },
      bearer(room),
    );
    expect(asked.status).toBe(200);
    // The three with the most yes votes, each missing at most half the room, asked of who said no.
    const questions = asked.body.questions as { placeId: string; placeName: string; userIds: string[] }[];
    expect(Object.fromEntries(questions.map((q) => [q.placeId, [...q.userIds].sort()]))).toEqual({
      [p0]: [c.id],
      [p1]: [b.id],
      [p2]: [b.id, c.id].sort(),
    });
    expect(questions[2].placeId).toBe(p2);
    const [started] = await a.stream.waitFor(ROOM_EVENTS.holdoutRoundStarted);
    expect(started.data).toMatchObject({ batchIndex: 0, questions: asked.body.questions });
    const again = await room.host.p.post(
      '/api/v1/waiting-room/holdouts',
      { waitingRoomId: room.code },
      bearer(room),
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(DECISION_MESSAGES.holdoutsAsked);

    // Someone who was not asked, or about a place they were not asked about, is refused.
    const notAsked = await answer(room, a, p0, 'yes');
    expect(notAsked.status).toBe(403);
    expect(notAsked.body.message).toBe(DECISION_MESSAGES.notAsked);
    expect((await answer(room, b, p0, 'yes')).body.message).toBe(DECISION_MESSAGES.notAsked);

    // c says yes to place 0 (its only holdout): retried with the same key, the same answer, once.
    const key = randomUUID();
    const first = await answer(room, c, p0, 'yes', key);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ answered: true, ended: false, agreed: [] });
    expect([...first.body.pending].sort()).toEqual([b.id, c.id].sort());
    expect((await answer(room, c, p0, 'yes', key)).body).toEqual(first.body);
    const twice = await answer(room, c, p0, 'no');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(DECISION_MESSAGES.alreadyAnswered);
    const [answered] = await room.host.stream.waitFor(ROOM_EVENTS.holdoutAnswered);
    expect(answered.data).toMatchObject({ placeId: p0, userId: c.id, pending: first.body.pending });
    expect(JSON.stringify(answered.data)).not.toContain('"answer"');

    expect((await answer(room, b, p1, 'no')).status).toBe(200);
    expect((await answer(room, b, p2, 'yes')).status).toBe(200);
    const last = await answer(room, c, p2, 'no');
    expect(last.body).toEqual({ answered: true, pending: [], ended: true, agreed: [p0] });

    for (const person of [room.host, a, b, c]) {
      const [ended] = await person.stream.waitFor(ROOM_EVENTS.holdoutRoundEnded);
      const data = ended.data as { agreed: string[]; result: { winners: string[]; agreed: string[] } };
      expect(data.agreed).toEqual([p0]);
      expect(data.result.winners).toEqual([p0]);
    }
    // A reload sees the same: the place is a winner, agreed after a second look.
    const snapshot = await a.p.get('/api/v1/waiting-room/current');
    expect(snapshot.body.ballots).toMatchObject({ winners: [p0], agreed: [p0] });
    expect(snapshot.body.holdout).toMatchObject({ ended: true, agreed: [p0] });
    expect(snapshot.body.holdout.answered).toHaveLength(4);

    // Now the batch has a winner: the round is over and cannot be answered; the plan can be shared.
    expect((await answer(room, b, p0, 'yes')).body.message).toBe(DECISION_MESSAGES.noHoldoutRound);
    const plan = await b.p.post('/api/v1/waiting-room/plan', { waitingRoomId: room.code, placeId: p0 });
    expect(plan.status).toBe(200);
    const view = await new Participant(stack.url).get(`/api/v1/plans/${plan.body.token}`);
    expect(view.body.decidedBy).toBe('holdout');
  });

  it('picks what each rule says on the same ballots', async () => {
    // Place 0: 3 of 4; place 1: 2 of 4; place 2: 3 of 4; places 3, 4: nobody.
    const ballots = [[0, 1, 2], [0, 2], [0, 1], [2]];
    const unanimous = await openRoom(3);
    expect((await voteAll(unanimous, ballots)).winners).toEqual([]);

    const majority = await openRoom(3, 'majority');
    const m = await voteAll(majority, ballots);
    expect(m.decisionRule).toBe('majority');
    expect(m.winners.sort()).toEqual([majority.batch[0], majority.batch[2]].sort());

    // Chosen in the waiting room instead of with start: everyone hears it, and start keeps it.
    const h = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Mo Host')).cookie);
    const created = await h.post('/api/v1/waiting-room/create', { userId: 'x', userName: 'Mo' });
    const code = created.body.waitingRoom.waitingRoomId;
    await h.untilRelayed(code, created.body.userId, ROOM_EVENTS.userJoined, 1);
    const guest = new Participant(stack.url);
    const joined = await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'G' });
    const guestStream = await listen(guest, code, joined.body.userId);
    const byGuest = await guest.patch('/api/v1/waiting-room/rule', {
      waitingRoomId: code,
      decisionRule: 'most',
    });
    expect(byGuest.status).toBe(401);
    const bad = await h.patch(
      '/api/v1/waiting-room/rule',
      { waitingRoomId: code, decisionRule: 'loudest' },
      { Authorization: `Bearer ${created.body.token}` },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(DECISION_MESSAGES.invalidRule);
    const set = await h.patch(
      '/api/v1/waiting-room/rule',
      { waitingRoomId: code, decisionRule: 'most' },
      { Authorization: `Bearer ${created.body.token}` },
    );
    expect(set.body).toEqual({ decisionRule: 'most' });
    const [changed] = await guestStream.waitFor(ROOM_EVENTS.decisionRuleChanged);
    expect(changed.data).toMatchObject({ decisionRule: 'most' });
    expect((await guest.get('/api/v1/waiting-room/current')).body.waitingRoom.decisionRule).toBe('most');
    const started = await h.post('/api/v1/waiting-room/start', START, {
      Authorization: `Bearer ${created.body.token}`,
    });
    const batch = started.body.places.slice(0, 5).map((p: { id: string }) => p.id);
    const late = await h.patch(
      '/api/v1/waiting-room/rule',
      { waitingRoomId: code, decisionRule: 'unanimous' },
      { Authorization: `Bearer ${created.body.token}` },
    );
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(DECISION_MESSAGES.ruleLocked);
    for (const [p, id, yes] of [
      [h, created.body.userId, [0, 1]],
      [guest, joined.body.userId, [1, 2]],
    ] as const) {
      await p.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: code,
        userId: id,
        votes: batch.map((placeId: string, at: number) => ({
          placeId,
          voteType: (yes as readonly number[]).includes(at) ? 'up' : 'down',
        })),
      });
    }
    const [most] = await guestStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    expect(most.data).toMatchObject({ decisionRule: 'most', winners: [batch[1]] });
  });

  it('draws one pick the same for everyone, once, and shares it as a plan page and a calendar file', async () => {
    const room = await openRoom(2, 'most');
    // Places 0 and 1 tie with 2 yes votes each.
    const result = await voteAll(room, [[0, 1], [0], [1]]);
    expect(result.winners.sort()).toEqual(room.batch.slice(0, 2).sort());

    // No single winner yet: a plan for a place nobody picked is refused.
    const early = await room.members[0].p.post('/api/v1/waiting-room/plan', {
      waitingRoomId: room.code,
      placeId: room.batch[3],
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(DECISION_MESSAGES.notAWinner);

    expect(
      (await room.members[0].p.post('/api/v1/waiting-room/pick', { waitingRoomId: room.code })).status,
    ).toBe(401);
    const drawn = await room.host.p.post(
      '/api/v1/waiting-room/pick',
      { waitingRoomId: room.code },
      bearer(room),
    );
    expect(drawn.status).toBe(200);
    expect(room.batch.slice(0, 2)).toContain(drawn.body.placeId);
    expect(drawn.body.candidates.sort()).toEqual(room.batch.slice(0, 2).sort());
    for (const person of [room.host, ...room.members]) {
      const [event] = await person.stream.waitFor(ROOM_EVENTS.pickDrawn);
      expect(event.data).toMatchObject({ placeId: drawn.body.placeId, batchIndex: 0 });
    }
    const redraw = await room.host.p.post(
      '/api/v1/waiting-room/pick',
      { waitingRoomId: room.code },
      bearer(room),
    );
    expect(redraw.status).toBe(409);
    expect(redraw.body.message).toBe(DECISION_MESSAGES.alreadyDrawn);
    expect((await room.members[1].p.get('/api/v1/waiting-room/current')).body.pick).toMatchObject({
      placeId: drawn.body.placeId,
    });

    // Only the drawn place can be the plan now.
    const other = room.batch.slice(0, 2).find((id) => id !== drawn.body.placeId)!;
    const wrong = await room.members[0].p.post('/api/v1/waiting-room/plan', {
      waitingRoomId: room.code,
      placeId: other,
    });
    expect(wrong.status).toBe(409);
    const at = new Date(Date.now() + 2 * 3600_000);
    at.setUTCSeconds(0, 0);
    const shared = await room.members[0].p.post('/api/v1/waiting-room/plan', {
      waitingRoomId: room.code,
      placeId: drawn.body.placeId,
      startsAt: at.toISOString(),
    });
    expect(shared.status).toBe(200);
    expect(shared.body.path).toBe(`/plan/${shared.body.token}`);
    // Shared again by someone else: the same plan.
    const again = await room.host.p.post('/api/v1/waiting-room/plan', {
      waitingRoomId: room.code,
      placeId: drawn.body.placeId,
    });
    expect(again.body.token).toBe(shared.body.token);

    const stranger = new Participant(stack.url);
    const plan = await stranger.get(`/api/v1/plans/${shared.body.token}`);
    expect(plan.status).toBe(200);
    expect(plan.body).toMatchObject({
      decidedBy: 'draw',
      decisionRule: 'most',
      startsAt: at.toISOString(),
      place: {
        id: drawn.body.placeId,
        name: expect.any(String),
        directionsUri: expect.stringMatching(/^https:/),
      },
    });
    // Nothing about who voted how.
    const text = JSON.stringify(plan.body);
    for (const person of [room.host, ...room.members]) expect(text).not.toContain(person.id);
    expect(text).not.toMatch(/Hana|Guest/);

    const ics = await stranger.get(`/api/v1/plans/${shared.body.token}/calendar.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    const body = ics.text;
    expect(body.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(body).toContain(`DTSTART:${at.toISOString().replace(/[-:]/g, '').replace('.000', '')}`);
    expect(body).toMatch(/\r\nLOCATION:[^\r\n]+/);
    expect(body.replace(/\r\n /g, '')).toContain(`/plan/${shared.body.token}`);

    // The page's link preview names the place; unknown and malformed plans are 404s.
    // (The web app is built before the suites run; the gateway serves it.)
    const page = await stranger.get(`/plan/${shared.body.token}`);
    expect(page.status).toBe(200);
    const name = plan.body.place.name.replace(/&/g, '&amp;').replace(/'/g, '&#39;');
    expect(page.text).toContain(`<meta property="og:title" content="${name} · ForkVote plan" />`);
    expect(page.text).toContain(`<title>${name} · ForkVote plan</title>`);
    expect((await stranger.get('/plan/AAAAAAAAAAAAAAAAAAAAAA')).text).toContain('<title>ForkVote</title>');
    for (const path of [
      '/api/v1/plans/AAAAAAAAAAAAAAAAAAAAAA',
      '/api/v1/plans/nope',
      '/api/v1/plans/nope/calendar.ics',
    ]) {
      const missing = await stranger.get(path);
      expect(missing.status).toBe(404);
      expect(missing.body.message).toBe(DECISION_MESSAGES.planNotFound);
    }

    // The plan outlives the room.
    await room.host.p.patch('/api/v1/waiting-room/leave', { waitingRoomId: room.code, userId: room.host.id });
    expect((await stranger.get(`/api/v1/plans/${shared.body.token}`)).status).toBe(200);
    expect(
      (
        await room.members[0].p.post('/api/v1/waiting-room/plan', {
          waitingRoomId: room.code,
          placeId: drawn.body.placeId,
        })
      ).status,
    ).not.toBe(200);
  });

  it('refuses a draw with one winner, and a holdout round when there is a winner', async () => {
    const room = await openRoom(1);
    const result = await voteAll(room, [[0, 1], [0]]);
    expect(result.winners).toEqual([room.batch[0]]);
    const draw = await room.host.p.post(
      '/api/v1/waiting-room/pick',
      { waitingRoomId: room.code },
      bearer(room),
    );
    expect(draw.status).toBe(409);
    expect(draw.body.message).toBe(DECISION_MESSAGES.nothingToDraw);
    const ask = await room.host.p.post(
      '/api/v1/waiting-room/holdouts',
      { waitingRoomId: room.code },
      bearer(room),
    );
    expect(ask.status).toBe(409);
    expect(ask.body.message).toBe(DECISION_MESSAGES.hasWinner);
    // Closed: the room's commands answer the seed's message.
    await room.host.p.patch('/api/v1/waiting-room/leave', { waitingRoomId: room.code, userId: room.host.id });
    const closed = await room.members[0].p.patch('/api/v1/waiting-room/holdouts/answer', {
      waitingRoomId: room.code,
      userId: room.members[0].id,
      placeId: room.batch[0],
      answer: 'yes',
    });
    expect(closed.status).toBeGreaterThanOrEqual(400);
    expect(closed.status).toBeLessThan(500);
    expect([ROOM_MESSAGES.roomClosed, ROOM_MESSAGES.notMember]).toContain(closed.body.message);
  });
});
