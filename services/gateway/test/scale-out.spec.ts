import { ROOM_EVENTS } from '@forkvote/contracts';
import {
  EventStreamClient,
  freePort,
  Participant,
  signUp,
  startTestStack,
  TestStack,
} from '@forkvote/testing';

/**
 * Scale-out on one machine: two gateway processes and two rooms processes. Members of one room are spread
 * over both gateways and see every event in the same order; when one gateway is killed mid-session, its
 * members reconnect to the other with Last-Event-ID and miss nothing.
 */
describe('two gateways and two rooms replicas', () => {
  let stack: TestStack;
  let secondUrl: string;

  beforeAll(async () => {
    stack = await startTestStack();
    const port = await freePort();
    stack.startOne('gateway', 'gateway-2', { PORT: String(port) });
    stack.startOne('rooms', 'rooms-2');
    secondUrl = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${secondUrl}/api/v1/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('keeps every member in step, through the loss of a gateway', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Hana' });
    const code: string = created.body.waitingRoom.waitingRoomId;
    const token: string = created.body.token;

    // Six guests, alternating between the two gateways; each keeps the cookie of the gateway it joined on.
    const guests: { person: Participant; userId: string; stream?: EventStreamClient }[] = [];
    for (let i = 0; i < 6; i++) {
      const person = new Participant(i % 2 === 0 ? stack.url : secondUrl);
      const joined = await person.patch('/api/v1/waiting-room/join', {
        waitingRoomId: code,
        userName: `Guest ${i}`,
      });
      expect(joined.status).toBe(200);
      guests.push({ person, userId: joined.body.userId });
    }
    for (const guest of guests) {
      guest.stream = await guest.person.events(code, guest.userId);
      await guest.stream.waitFor(ROOM_EVENTS.subscribed);
    }

    const started = await host.post(
      '/api/v1/waiting-room/start',
      { latitude: 40.7, longitude: -74, radiusInMeters: 5000 },
      { Authorization: `Bearer ${token}` },
    );
    expect(started.status).toBe(200);
    const batch: string[] = started.body.places.slice(0, 5).map((p: { id: string }) => p.id);
    for (const guest of guests) await guest.stream!.waitFor(ROOM_EVENTS.started);

    // Half the guests vote, then the second gateway dies with its streams open.
    for (const guest of guests.slice(0, 3)) {
      const voted = await guest.person.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: code,
        userId: guest.userId,
        votes: batch.map((placeId) => ({ placeId, voteType: 'up' })),
      });
      expect(voted.status).toBe(200);
    }
    for (const guest of guests) await guest.stream!.waitFor(ROOM_EVENTS.userVoted, 3);
    await stack.stopOne('gateway-2', 'SIGKILL');

    // While they are cut off, the rest vote (the host through the surviving gateway).
    const orphans = guests.filter((_, i) => i % 2 === 1);
    for (const orphan of orphans) await orphan.stream!.closed;
    for (const guest of guests.slice(3)) {
      const survivor = new Participant(
        stack.url,
        guest.person.cookieHeader.split('; ').find((c) => c.startsWith('fv_room=')),
      );
      const voted = await survivor.patch('/api/v1/waiting-room/vote', {
        waitingRoomId: code,
        userId: guest.userId,
        votes: batch.map((placeId) => ({ placeId, voteType: 'up' })),
      });
      expect(voted.status).toBe(200);
    }
    const hostVote = await host.patch('/api/v1/waiting-room/vote', {
      waitingRoomId: code,
      userId: created.body.userId,
      votes: batch.map((placeId) => ({ placeId, voteType: 'down' })),
    });
    expect(hostVote.status).toBe(200);

    // The cut-off members reconnect to the surviving gateway from where they were.
    for (const orphan of orphans) {
      const resumed = new Participant(
        stack.url,
        orphan.person.cookieHeader.split('; ').find((c) => c.startsWith('fv_room=')),
      );
      const before = orphan.stream!.events.filter((e) => e.id);
      const stream = await resumed.events(code, orphan.userId, orphan.stream!.lastEventId);
      await stream.waitFor(ROOM_EVENTS.ballotsSubmitted);
      const after = stream.events.filter((e) => e.id);
      orphan.stream = Object.assign(stream, { seen: [...before, ...after] });
    }
    for (const guest of guests.filter((_, i) => i % 2 === 0))
      await guest.stream!.waitFor(ROOM_EVENTS.ballotsSubmitted);

    // Everyone saw the same events, in the same order, once each.
    const sequence = (guest: (typeof guests)[number]) =>
      (
        (guest.stream as EventStreamClient & { seen?: { id?: string }[] }).seen ??
        guest.stream!.events.filter((e) => e.id)
      ).map((e) => e.id);
    const reference = sequence(guests[0]);
    expect(new Set(reference).size).toBe(reference.length);
    for (const guest of guests) expect(sequence(guest)).toEqual(reference);
    const names = guests[0].stream!.events.filter((e) => e.id).map((e) => e.event);
    expect(names.filter((n) => n === ROOM_EVENTS.userVoted)).toHaveLength(7);
    expect(names.at(-1)).toBe(ROOM_EVENTS.ballotsSubmitted);
    for (const guest of guests) guest.stream!.close();
  });
});
