import { ROOM_EVENTS } from '@forkvote/contracts';
import {
  EventStreamClient,
  Participant,
  signUp,
  START_SEARCH,
  startTestStack,
  TestStack,
  until,
} from '@forkvote/testing';
import { Client } from 'pg';

/**
 * What a group leaves behind, through the gateway against the real stack: a closed room's session in its
 * registered members' history (never a guest's), and its winner marked as a recent pick, moved to the last
 * batch when the host prefers new places, and marked on discovery for the signed-in.
 */
describe('history and fresh picks', () => {
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

  it('keeps a closed session for its registered members, marks its winner, and moves it last on request', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const member = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Max Member')).cookie);
    const guest = new Participant(stack.url);
    const room = await host.openRoom('Hana');
    const joinedMember = await member.patch('/api/v1/waiting-room/join', {
      waitingRoomId: room.code,
      userName: 'Max',
    });
    const joinedGuest = await guest.patch('/api/v1/waiting-room/join', {
      waitingRoomId: room.code,
      userName: 'Gus',
    });
    const stream = await guest.events(room.code, joinedGuest.body.userId);
    streams.push(stream);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${room.token}`,
    });
    const ids: string[] = started.body.places.map((p: { id: string }) => p.id);
    expect(started.body.places.some((p: { lastPickedAt?: string }) => p.lastPickedAt)).toBe(false);
    const batch = ids.slice(0, 5);
    const chosen = batch[1];
    for (const [p, userId] of [
      [host, room.hostId],
      [member, joinedMember.body.userId],
      [guest, joinedGuest.body.userId],
    ] as const) {
      const res = await p.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: room.code,
        userId,
        votes: batch.map((placeId) => ({ placeId, voteType: placeId === chosen ? 'up' : 'down' })),
      });
      expect(res.status).toBe(200);
    }
    await stream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    // The host closes the room; what it decided stays.
    await host.patch('/api/v1/waiting-room/leave', { waitingRoomId: room.code, userId: room.hostId });

    const history = await until(
      () => member.get('/api/v1/me/history'),
      (res) => res.body.sessions?.length === 1,
    );
    expect(history.status).toBe(200);
    expect(history.body).toMatchObject({ page: 1, hasMore: false });
    const [session] = history.body.sessions;
    expect(session).toMatchObject({
      waitingRoomId: room.code,
      people: ['Hana', 'Max', 'Gus'],
      decisionRule: 'unanimous',
      batches: [{ batchIndex: 0, voterCount: 3, picked: null, winners: [{ id: chosen, upVotes: 3 }] }],
    });
    expect(session.batches[0].places.map((p: { id: string }) => p.id).sort()).toEqual([...batch].sort());
    expect((await host.get('/api/v1/me/history')).body.sessions).toHaveLength(1);
    // A guest has no history; a bad page is a 400 with its message.
    expect((await guest.get('/api/v1/me/history')).status).toBe(401);
    const bad = await member.get('/api/v1/me/history?page=0');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('page must be a whole number from 1 to 100');
    expect((await member.get('/api/v1/me/history?page=2')).body).toEqual({
      page: 2,
      hasMore: false,
      sessions: [],
    });

    // Twelve days pass.
    const db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query(`UPDATE "rooms"."batch_results" SET decided_at = now() - interval '12 days'`);
    } finally {
      await db.end();
    }

    // Discovery marks it for the host, not for someone signed out.
    const query =
      '/api/v1/places/nearby?latitude=40.7484&longitude=-73.9967&radius=5&unit=miles&maxResultCount=20&includedTypes=restaurant&rankPreference=popularity';
    const mine = await host.get(query);
    expect(mine.status).toBe(200);
    const marked = mine.body.places.filter((p: { lastPickedAt?: string }) => p.lastPickedAt);
    expect(marked.map((p: { id: string }) => p.id)).toEqual([chosen]);
    expect(Date.now() - Date.parse(marked[0].lastPickedAt)).toBeGreaterThan(11.9 * 86_400_000);
    const anonymous = await new Participant(stack.url).get(query);
    expect(anonymous.body.places.some((p: { lastPickedAt?: string }) => p.lastPickedAt)).toBe(false);

    // The host's next room: marked where it stands; with "Prefer new places", moved to the last batch.
    const again = await host.openRoom('Hana');
    const plain = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${again.token}`,
    });
    expect(plain.body.places.map((p: { id: string }) => p.id)).toEqual(ids);
    expect(plain.body.places[1]).toMatchObject({ id: chosen, lastPickedAt: marked[0].lastPickedAt });
    const fresh = await host.openRoom('Hana');
    const preferred = await host.post(
      '/api/v1/waiting-room/start',
      { ...START_SEARCH, preferNewPlaces: true },
      { Authorization: `Bearer ${fresh.token}` },
    );
    const order = preferred.body.places.map((p: { id: string }) => p.id);
    expect(order.at(-1)).toBe(chosen);
    expect(order.slice(0, -1)).toEqual(ids.filter((id) => id !== chosen));
  });
});
