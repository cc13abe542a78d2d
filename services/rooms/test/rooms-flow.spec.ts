import { ROOM_EVENTS, ROOM_MESSAGES } from '@forkvote/contracts';
import {
  EventStreamClient,
  freePort,
  Participant,
  signUp,
  startTestStack,
  TestStack,
} from '@forkvote/testing';
import { Client } from 'pg';

/**
 * A three-person session through the gateway against the real stack: host (subscriber), a logged-in
 * member and a guest; events over SSE; refusals; replay; a rooms restart mid-vote; two gateways.
 */
const NYC = { latitude: 40.7484, longitude: -73.9967 };
const START = {
  ...NYC,
  radiusInMeters: 8046.7,
  includedTypes: ['restaurant'],
  excludedTypes: [],
  maxResultCount: 20,
  rankPreference: 'popularity',
};

interface Room {
  code: string;
  hostToken: string;
  hostId: string;
}

describe('rooms and live events', () => {
  let stack: TestStack;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ RPC_CLAIM_IDLE_MS: '1000' });
  });

  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function host(): Promise<Participant> {
    return new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
  }

  async function openRoom(h: Participant): Promise<Room> {
    const res = await h.post('/api/v1/waiting-room/create', { userId: 'ignored', userName: '  Hana  ' });
    expect(res.status).toBe(200);
    // The room's first event (the host's USER_JOINED) is relayed a moment after this answer: a stream the
    // test opens next starts after it, every time.
    await h.untilRelayed(res.body.waitingRoom.waitingRoomId, res.body.userId, ROOM_EVENTS.userJoined, 1);
    return { code: res.body.waitingRoom.waitingRoomId, hostToken: res.body.token, hostId: res.body.userId };
  }

  async function listen(p: Participant, code: string, userId: string, lastEventId?: string) {
    const stream = await p.events(code, userId, lastEventId);
    streams.push(stream);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    return stream;
  }

  const join = (p: Participant, code: string, userName: string) =>
    p.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName, userId: 'whatever' });
  const start = (p: Participant, token: string, body: object = START) =>
    p.post('/api/v1/waiting-room/start', body, { Authorization: `Bearer ${token}` });
  const vote = (
    p: Participant,
    code: string,
    userId: string,
    placeIds: string[],
    yes: (id: string) => boolean,
  ) =>
    p.patch('/api/v1/waiting-room/vote', {
      waitingRoomId: code,
      userId,
      votes: placeIds.map((placeId) => ({ placeId, voteType: yes(placeId) ? 'up' : 'down' })),
    });
  const nextBatch = (p: Participant, token: string, code: string, nextBatchIndex: number) =>
    p.post(
      '/api/v1/waiting-room/next-batch',
      { waitingRoomId: code, nextBatchIndex },
      { Authorization: `Bearer ${token}` },
    );

  it('runs a whole session with three people, everyone seeing every event in order', async () => {
    const h = await host();
    const room = await openRoom(h);
    expect(room.code).toMatch(/^[A-Z0-9]{6}$/);
    const hostStream = await listen(h, room.code, room.hostId);

    const member = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Max Member')).cookie);
    const guest = new Participant(stack.url);
    const joinedMember = await join(member, room.code.toLowerCase(), 'Max');
    expect(joinedMember.status).toBe(200);
    const memberId = joinedMember.body.userId;
    expect(memberId).not.toBe('whatever');
    const joinedGuest = await join(guest, room.code, '  Gus the Guest ');
    expect(joinedGuest.status).toBe(200);
    expect(joinedGuest.body).toMatchObject({
      userName: 'Gus the Guest',
      userId: expect.stringMatching(/^guest-/),
    });
    const guestId = joinedGuest.body.userId;
    expect(joinedGuest.body.waitingRoom).toMatchObject({
      waitingRoomId: room.code,
      createdBy: { userId: room.hostId, userName: 'Hana' },
      users: [
        { userId: room.hostId, userName: 'Hana' },
        { userId: memberId, userName: 'Max' },
        { userId: guestId, userName: 'Gus the Guest' },
      ],
    });
    const memberStream = await listen(member, room.code, memberId);
    const guestStream = await listen(guest, room.code, guestId);
    await hostStream.waitFor(ROOM_EVENTS.userJoined, 2);

    const started = await start(h, room.hostToken);
    expect(started.status).toBe(200);
    expect(started.body.places).toHaveLength(20);
    const ids: string[] = started.body.places.map((p: { id: string }) => p.id);
    for (const s of [hostStream, memberStream, guestStream]) {
      const [event] = await s.waitFor(ROOM_EVENTS.started);
      expect((event.data as { places: unknown[]; batchIndex: number }).batchIndex).toBe(0);
      expect((event.data as { places: unknown[] }).places).toHaveLength(20);
    }

    // Batch 0: everyone approves the first two places, only the host the third.
    const batch0 = ids.slice(0, 5);
    expect((await vote(h, room.code, room.hostId, batch0, (id) => batch0.indexOf(id) < 3)).status).toBe(200);
    expect((await vote(member, room.code, memberId, batch0, (id) => batch0.indexOf(id) < 2)).status).toBe(
      200,
    );
    const last = await vote(guest, room.code, guestId, batch0, (id) => batch0.indexOf(id) < 2);
    expect(last.body).toEqual({ voted: true, usersVoted: [room.hostId, memberId, guestId] });

    for (const s of [hostStream, memberStream, guestStream]) {
      const [ballots] = await s.waitFor(ROOM_EVENTS.ballotsSubmitted);
      const result = ballots.data as {
        voterCount: number;
        winners: string[];
        ballots: { placeId: string; upVotes: number; approval: number }[];
      };
      expect(result.voterCount).toBe(3);
      expect(result.winners.sort()).toEqual(batch0.slice(0, 2).sort());
      expect(result.ballots.find((b) => b.placeId === batch0[2])).toMatchObject({ upVotes: 1, approval: 33 });
      expect(result.ballots).toHaveLength(5);
    }
    const expectedOrder = [
      ROOM_EVENTS.subscribed,
      ROOM_EVENTS.userJoined,
      ROOM_EVENTS.userJoined,
      ROOM_EVENTS.started,
      ROOM_EVENTS.userVoted,
      ROOM_EVENTS.userVoted,
      ROOM_EVENTS.userVoted,
      ROOM_EVENTS.ballotsSubmitted,
    ];
    expect(hostStream.names()).toEqual(expectedOrder);
    expect(guestStream.names().slice(-5)).toEqual(expectedOrder.slice(-5));
    const eventIds = hostStream.events.filter((e) => e.id).map((e) => e.id!);
    expect(
      [...eventIds].sort(
        (a, b) =>
          Number(a.split('-')[0]) - Number(b.split('-')[0]) ||
          Number(a.split('-')[1]) - Number(b.split('-')[1]),
      ),
    ).toEqual(eventIds);

    // Next batches until the places run out (20 places: batches 0 to 3).
    for (let index = 1; index <= 3; index++) {
      const moved = await nextBatch(h, room.hostToken, room.code, index);
      expect(moved.body).toEqual({ batchIndex: index, noMorePlaces: false });
      const [next] = (await guestStream.waitFor(ROOM_EVENTS.nextBatch, index)).slice(-1);
      expect(next.data).toMatchObject({ nextBatchIndex: index });
      const batch = ids.slice(index * 5, index * 5 + 5);
      for (const [p, id] of [
        [h, room.hostId],
        [member, memberId],
        [guest, guestId],
      ] as const) {
        expect((await vote(p, room.code, id, batch, () => false)).status).toBe(200);
      }
      const [, ...rest] = await hostStream.waitFor(ROOM_EVENTS.ballotsSubmitted, index + 1);
      expect((rest.at(-1)!.data as { winners: string[] }).winners).toEqual([]);
    }
    const end = await nextBatch(h, room.hostToken, room.code, 4);
    expect(end.body).toEqual({ batchIndex: 3, noMorePlaces: true });

    // The host closes the room: everyone hears USER_LEFT of the host, and the room refuses joins.
    expect(
      (await h.patch('/api/v1/waiting-room/leave', { waitingRoomId: room.code, userId: room.hostId })).status,
    ).toBe(200);
    const [closed] = await guestStream.waitFor(ROOM_EVENTS.userLeft);
    expect(closed.data).toMatchObject({ userId: room.hostId, isHost: true, roomClosed: true, users: [] });
    const late = await join(new Participant(stack.url), room.code, 'Late');
    expect(late.status).toBe(410);
    expect(late.body.message).toBe(ROOM_MESSAGES.roomClosed);
  });

  it('closes the batch exactly once when many join and vote at the same moment', async () => {
    const h = await host();
    const room = await openRoom(h);
    const hostStream = await listen(h, room.code, room.hostId);
    const guests = Array.from({ length: 12 }, () => new Participant(stack.url));
    const joined = await Promise.all(guests.map((g, i) => join(g, room.code, `Guest ${i}`)));
    expect(joined.map((j) => j.status)).toEqual(guests.map(() => 200));
    const ids = joined.map((j) => j.body.userId as string);
    expect(new Set(ids).size).toBe(12);
    // Each join saw itself; the room's events end up listing everyone (the host's came before listening).
    joined.forEach((j, i) =>
      expect(j.body.waitingRoom.users).toContainEqual({ userId: ids[i], userName: `Guest ${i}` }),
    );
    const joinEvents = await hostStream.waitFor(ROOM_EVENTS.userJoined, 12);
    const sizes = joinEvents.map((e) => (e.data as { users: unknown[] }).users.length);
    expect(Math.max(...sizes)).toBe(13);

    const batch: string[] = (await start(h, room.hostToken)).body.places
      .slice(0, 5)
      .map((p: { id: string }) => p.id);
    // Everyone at once, one of them with a bad ballot that must fail alone.
    const answers = await Promise.all([
      vote(h, room.code, room.hostId, batch, () => true),
      ...guests.map((g, i) =>
        vote(g, room.code, ids[i], i === 0 ? batch.slice(0, 4) : batch, (id) => id === batch[0]),
      ),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 400, ...guests.slice(1).map(() => 200)]);
    expect((await vote(guests[0], room.code, ids[0], batch, () => false)).status).toBe(200);

    const [results] = await hostStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    expect(results.data).toMatchObject({ voterCount: 13, winners: [] });
    const voted = await hostStream.waitFor(ROOM_EVENTS.userVoted, 13);
    expect(new Set(voted.map((e) => (e.data as { userId: string }).userId)).size).toBe(13);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hostStream.names().filter((name) => name === ROOM_EVENTS.ballotsSubmitted)).toHaveLength(1);
  });

  it('refuses what members may not do', async () => {
    const h = await host();
    const room = await openRoom(h);
    const guest = new Participant(stack.url);
    const guestId = (await join(guest, room.code, 'Gus')).body.userId;
    const other = new Participant(stack.url);
    const otherId = (await join(other, room.code, 'Olga')).body.userId;

    // Start without the host's token, or with a guest's cookie only.
    const noToken = await guest.post('/api/v1/waiting-room/start', START);
    expect(noToken.status).toBe(401);
    expect(noToken.body.error).toBe(ROOM_MESSAGES.hostOnly);
    expect((await start(guest, 'not-a-token')).status).toBe(401);
    const badStart = await start(h, room.hostToken, { ...START, radiusInMeters: 0 });
    expect(badStart.status).toBe(400);
    expect((await start(h, room.hostToken, { ...START, latitude: undefined })).body.message).toBe(
      'Please provide location information',
    );

    // Fields no DTO declares are refused, at the top of a body and inside a ballot's votes, whoever sends them.
    const votes = ['a', 'b', 'c', 'd', 'e'].map((placeId) => ({ placeId, voteType: 'up' }));
    for (const [body, message] of [
      [{ waitingRoomId: room.code, userId: guestId, votes, extra: 1 }, 'property extra should not exist'],
      [
        { waitingRoomId: room.code, userId: guestId, votes: [{ ...votes[0], weight: 9 }, ...votes.slice(1)] },
        'property weight should not exist',
      ],
    ] as const) {
      const refused = await guest.patch('/api/v1/waiting-room/vote', body);
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain(message);
    }
    const extraJoin = await new Participant(stack.url).patch('/api/v1/waiting-room/join', {
      waitingRoomId: room.code,
      userName: 'Xena',
      isHost: true,
    });
    expect(extraJoin.status).toBe(400);
    expect(extraJoin.body.message).toBe('property isHost should not exist');

    // Voting before the start.
    const early = await vote(guest, room.code, guestId, ['a', 'b', 'c', 'd', 'e'], () => true);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe(ROOM_MESSAGES.notVoting);

    const ids: string[] = (await start(h, room.hostToken)).body.places.map((p: { id: string }) => p.id);
    expect((await start(h, room.hostToken)).status).toBe(409);
    const batch = ids.slice(0, 5);
    // As someone else, with 4 places, with a place of another batch, then twice.
    const asOther = await vote(guest, room.code, otherId, batch, () => true);
    expect(asOther.status).toBe(403);
    expect(asOther.body.error).toBe(ROOM_MESSAGES.voteForYourself);
    const four = await vote(guest, room.code, guestId, batch.slice(0, 4), () => true);
    expect(four.status).toBe(400);
    expect(four.body.error).toBe(ROOM_MESSAGES.voteAllPlaces);
    expect((await vote(guest, room.code, guestId, [...batch.slice(0, 4), ids[7]], () => true)).status).toBe(
      400,
    );
    const repeated = await vote(guest, room.code, guestId, [batch[0], ...batch.slice(0, 4)], () => true);
    expect(repeated.status).toBe(400);
    expect((await vote(guest, room.code, guestId, batch, () => true)).status).toBe(200);
    const twice = await vote(guest, room.code, guestId, batch, () => true);
    expect(twice.status).toBe(409);
    expect(twice.body.error).toBe(ROOM_MESSAGES.alreadyVoted);
    // A member who has left may no longer vote.
    expect(
      (await other.patch('/api/v1/waiting-room/leave', { waitingRoomId: room.code, userId: otherId })).status,
    ).toBe(200);
    const gone = await vote(other, room.code, otherId, batch, () => true);
    expect(gone.status).toBe(403);
    expect(gone.body.error).toBe(ROOM_MESSAGES.notMember);
    // A participant of no room, and someone else's next batch.
    expect((await vote(new Participant(stack.url), room.code, guestId, batch, () => true)).status).toBe(403);
    expect((await nextBatch(h, room.hostToken, room.code, 1)).status).toBe(409);

    // Joining: unknown room, bad id format, blank name.
    const unknown = await join(new Participant(stack.url), 'ZZZZZ9', 'Nobody');
    expect([404, 410]).toContain(unknown.status);
    const badId = await join(new Participant(stack.url), 'abc', 'Nobody');
    expect(badId.status).toBe(400);
    expect(badId.body.message).toBe(ROOM_MESSAGES.invalidRoomId);
    expect((await join(new Participant(stack.url), room.code, '   ')).body.message).toBe(
      ROOM_MESSAGES.nameRequired,
    );

    // The event stream is for members only.
    await expect(new Participant(stack.url).events(room.code, guestId)).rejects.toMatchObject({
      status: 403,
    });
    await expect(guest.events(room.code, otherId)).rejects.toMatchObject({ status: 403 });
  });

  it('refuses the stream to a member who left, even with a copy of their cookie', async () => {
    const h = await host();
    const room = await openRoom(h);
    // The room is streamed here, so the gateway keeps its member set from the room's events.
    const hostStream = await listen(h, room.code, room.hostId);
    const guest = new Participant(stack.url);
    const guestId = (await join(guest, room.code, 'Gil')).body.userId;
    await hostStream.waitFor(ROOM_EVENTS.userJoined, 1);
    const copy = new Participant(stack.url, guest.cookieHeader);
    (await listen(guest, room.code, guestId)).close();

    const left = await guest.patch('/api/v1/waiting-room/leave', {
      waitingRoomId: room.code,
      userId: guestId,
    });
    expect(left.status).toBe(200);
    await hostStream.waitFor(ROOM_EVENTS.userLeft, 1);
    await expect(copy.events(room.code, guestId)).rejects.toMatchObject({ status: 403 });
    // Joining again makes them a member again, in the same kept set.
    const back: string = (await join(copy, room.code, 'Gil')).body.userId;
    await hostStream.waitFor(ROOM_EVENTS.userJoined, 2);
    await listen(copy, room.code, back);
  });

  it('needs a subscription to create a room', async () => {
    const anonymous = await new Participant(stack.url).post('/api/v1/waiting-room/create', {
      userName: 'Anon',
    });
    expect(anonymous.status).toBe(401);
    const user = await signUp(stack.url, 'yearly', 'Carl Canceled');
    const carl = new Participant(stack.url, user.cookie);
    await carl.post('/api/v1/billing/portal/cancel');
    const refused = await carl.post('/api/v1/waiting-room/create', { userName: 'Carl' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(ROOM_MESSAGES.mustSubscribe);
  });

  it('replays exactly the missed events to a client reconnecting with Last-Event-ID', async () => {
    const h = await host();
    const room = await openRoom(h);
    const guest = new Participant(stack.url);
    const guestId = (await join(guest, room.code, 'Gus')).body.userId;
    const first = await listen(guest, room.code, guestId);
    const ids: string[] = (await start(h, room.hostToken)).body.places.map((p: { id: string }) => p.id);
    await first.waitFor(ROOM_EVENTS.started);
    const resumeFrom = first.lastEventId!;
    first.close();

    // While the guest is away: someone joins, the host votes. Both are in the room's log (the host's own
    // stream has seen them) before the guest comes back, so they can only reach the guest as a replay.
    const hostStream = await listen(h, room.code, room.hostId);
    await join(new Participant(stack.url), room.code, 'Ola');
    await vote(h, room.code, room.hostId, ids.slice(0, 5), () => true);
    await hostStream.waitFor(ROOM_EVENTS.userVoted);

    const again = await listen(guest, room.code, guestId, resumeFrom);
    await again.waitFor(ROOM_EVENTS.userVoted);
    expect(again.names()).toEqual([ROOM_EVENTS.userJoined, ROOM_EVENTS.userVoted, ROOM_EVENTS.subscribed]);
    expect(again.events[0].data).toMatchObject({ userName: 'Ola' });

    // The state for a reload agrees.
    const current = await guest.get('/api/v1/waiting-room/current');
    expect(current.body).toMatchObject({
      userId: guestId,
      isHost: false,
      voted: false,
      usersVoted: [room.hostId],
    });
    expect(current.body.places).toHaveLength(20);
  });

  it('lets a member who leaves mid-vote no longer block the ballot', async () => {
    const h = await host();
    const room = await openRoom(h);
    const guest = new Participant(stack.url);
    const guestId = (await join(guest, room.code, 'Gus')).body.userId;
    const hostStream = await listen(h, room.code, room.hostId);
    const ids: string[] = (await start(h, room.hostToken)).body.places.map((p: { id: string }) => p.id);
    await vote(h, room.code, room.hostId, ids.slice(0, 5), () => true);
    expect(
      (await guest.patch('/api/v1/waiting-room/leave', { waitingRoomId: room.code, userId: guestId })).status,
    ).toBe(200);
    const [ballots] = await hostStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    expect(ballots.data).toMatchObject({ voterCount: 1, winners: expect.arrayContaining(ids.slice(0, 5)) });
    // The guest's room cookie is gone: they cannot vote or listen any more.
    expect((await vote(guest, room.code, guestId, ids.slice(0, 5), () => true)).status).toBe(403);
  });

  it('keeps publishing when the outbox relay loses its database connection', async () => {
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      // The relay's session lock (key 0x726f6f6d: classid 0, objid the key, objsubid 1 for a bigint key).
      const relayBackend = async () =>
        (
          await db.query<{ pid: number }>(
            `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1 AND objsubid = 1`,
            [0x726f6f6d],
          )
        ).rows[0]?.pid;
      const h = await host();
      const room = await openRoom(h);
      const hostStream = await listen(h, room.code, room.hostId);
      const before = await relayBackend();
      expect(before).toBeDefined();
      await db.query('SELECT pg_terminate_backend($1)', [before]);

      // Events committed after the cut still reach the room: the relay takes the lock on a new connection.
      const guest = new Participant(stack.url);
      expect((await join(guest, room.code, 'Gus')).status).toBe(200);
      const [joined] = await hostStream.waitFor(ROOM_EVENTS.userJoined);
      expect(joined.data).toMatchObject({ userName: 'Gus' });
      const after = await relayBackend();
      expect(after).toBeDefined();
      expect(after).not.toBe(before);
    } finally {
      await db.end();
    }
  });

  it('passes open now and price from start to the search, and refuses bad ones', async () => {
    const h = await host();
    const room = await openRoom(h);
    const bad = await start(h, room.hostToken, { ...START, priceLevels: ['PRICE_LEVEL_GRATIS'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Unknown price level');
    expect((await start(h, room.hostToken, { ...START, openNow: 'perhaps' })).status).toBe(400);

    const res = await start(h, room.hostToken, {
      ...START,
      priceLevels: ['PRICE_LEVEL_INEXPENSIVE'],
      openNow: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.places.length).toBeGreaterThan(0);
    for (const place of res.body.places) {
      expect([undefined, 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_FREE']).toContain(place.priceLevel);
    }
  });

  it('lets the host nudge those who have not voted, once per member per 30 s', async () => {
    const h = await host();
    const room = await openRoom(h);
    const ann = new Participant(stack.url);
    const bob = new Participant(stack.url);
    const annId = (await join(ann, room.code, 'Ann')).body.userId;
    const bobId = (await join(bob, room.code, 'Bob')).body.userId;
    const nudge = (p: Participant, token = room.hostToken, waitingRoomId: unknown = room.code) =>
      p.post('/api/v1/waiting-room/nudge', { waitingRoomId }, { Authorization: `Bearer ${token}` });

    // Not before voting has started.
    expect((await nudge(h)).body).toMatchObject({ statusCode: 409, message: ROOM_MESSAGES.notVoting });
    const annStream = await listen(ann, room.code, annId);
    const ids: string[] = (await start(h, room.hostToken)).body.places.map((p: { id: string }) => p.id);
    await vote(bob, room.code, bobId, ids.slice(0, 5), () => true);

    const first = await nudge(h);
    expect(first.status).toBe(200);
    // Bob has voted and the host does not nudge themself: only Ann.
    expect(first.body).toEqual({ nudged: [annId], pending: [annId] });
    const [event] = await annStream.waitFor(ROOM_EVENTS.nudge);
    expect(event.data).toMatchObject({ userIds: [annId], hostName: 'Hana', batchIndex: 0 });

    // Again at once: Ann was nudged less than 30 s ago.
    const again = await nudge(h);
    expect(again.status).toBe(429);
    expect(again.body.message).toBe(ROOM_MESSAGES.nudgedRecently);

    // Members cannot nudge, nor can a host of another room, nor a hostile body.
    expect((await nudge(ann, 'not-a-token')).status).toBe(401);
    expect((await ann.post('/api/v1/waiting-room/nudge', { waitingRoomId: room.code })).status).toBe(401);
    expect((await nudge(h, room.hostToken, 'ZZZZZZ')).status).toBe(403);
    for (const bad of [null, 42, { $ne: 1 }, 'x'.repeat(5000)]) {
      const res = await nudge(h, room.hostToken, bad);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(ROOM_MESSAGES.invalidRoomId);
    }

    // Once everyone but the host has voted, there is nobody left to nudge; with the results in, no voting.
    await vote(ann, room.code, annId, ids.slice(0, 5), () => true);
    expect((await nudge(h)).body).toMatchObject({ statusCode: 409, message: ROOM_MESSAGES.everyoneVoted });
    await vote(h, room.code, room.hostId, ids.slice(0, 5), () => true);
    await annStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    expect((await nudge(h)).body).toMatchObject({ statusCode: 409, message: ROOM_MESSAGES.notVoting });
  });

  it('loses no vote and no member when the rooms process restarts mid-vote', async () => {
    const h = await host();
    const room = await openRoom(h);
    const guest = new Participant(stack.url);
    const guestId = (await join(guest, room.code, 'Gus')).body.userId;
    const guestStream = await listen(guest, room.code, guestId);
    const ids: string[] = (await start(h, room.hostToken)).body.places.map((p: { id: string }) => p.id);
    await vote(h, room.code, room.hostId, ids.slice(0, 5), () => true);

    await stack.stopOne('rooms');
    stack.startOne('rooms');
    await stack.waitHealthy(30_000);

    const current = await guest.get('/api/v1/waiting-room/current');
    expect(current.body.waitingRoom.users).toHaveLength(2);
    expect(current.body.usersVoted).toEqual([room.hostId]);
    expect((await vote(guest, room.code, guestId, ids.slice(0, 5), () => true)).status).toBe(200);
    const [ballots] = await guestStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    expect(ballots.data).toMatchObject({ voterCount: 2 });
  });

  it('delivers every event of a room to clients of two gateway processes', async () => {
    const port = await freePort();
    stack.startOne('gateway', 'gateway-2', { PORT: String(port) });
    const secondUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      const ok = await fetch(`${secondUrl}/api/v1/health`)
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    try {
      const h = await host();
      const room = await openRoom(h);
      const guest = new Participant(secondUrl);
      const guestId = (await join(guest, room.code, 'Gus')).body.userId;
      const hostStream = await listen(h, room.code, room.hostId);
      const guestStream = await listen(guest, room.code, guestId);
      const ids: string[] = (await start(h, room.hostToken)).body.places.map((p: { id: string }) => p.id);
      await vote(h, room.code, room.hostId, ids.slice(0, 5), () => true);
      await vote(guest, room.code, guestId, ids.slice(0, 5), () => true);
      await hostStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
      await guestStream.waitFor(ROOM_EVENTS.ballotsSubmitted);
      const tail = [
        ROOM_EVENTS.started,
        ROOM_EVENTS.userVoted,
        ROOM_EVENTS.userVoted,
        ROOM_EVENTS.ballotsSubmitted,
      ];
      expect(hostStream.names().slice(-4)).toEqual(tail);
      expect(guestStream.names().slice(-4)).toEqual(tail);
    } finally {
      await stack.stopOne('gateway-2');
    }
  });
});
