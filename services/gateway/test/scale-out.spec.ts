import { ROOM_EVENTS } from '@forkvote/contracts';
import {
  EventStreamClient,
  freePort,
  metricSum,
  Participant,
  signUp,
  startTestStack,
  TestStack,
} from '@forkvote/testing';

const RPC_CALLS = 'forkvote_rpc_client_duration_seconds_count';

/**
 * Scale-out on one machine: two gateway processes and two rooms processes. Each gateway subscribes only to
 * the rooms it has clients in. Members of one room are spread over both gateways and see every event in the
 * same order; when one gateway is killed mid-session, its members reconnect to the other with Last-Event-ID
 * and miss nothing. With REDIS_URL and REDIS_CLUSTER=true naming a Redis Cluster, `npm run test:cluster`
 * runs this suite on the cluster.
 */
describe('two gateways and two rooms replicas', () => {
  let stack: TestStack;
  let secondUrl: string;
  const metricsPorts: number[] = [];

  beforeAll(async () => {
    metricsPorts.push(await freePort(), await freePort());
    stack = await startTestStack({}, undefined, { gateway: { METRICS_PORT: String(metricsPorts[0]) } });
    const port = await freePort();
    stack.startOne('gateway', 'gateway-2', { PORT: String(port), METRICS_PORT: String(metricsPorts[1]) });
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

  it("gives each gateway only its own rooms' events, and drops a room when its last client leaves", async () => {
    const [first, second] = metricsPorts;
    const metricsPort = (gatewayUrl: string) => (gatewayUrl === stack.url ? first : second);
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Rhea Rooms')).cookie);
    // Room A's members listen on the first gateway, room B's on the second.
    const rooms = await Promise.all(
      [stack.url, secondUrl].map(async (gatewayUrl) => {
        const created = await host.post('/api/v1/waiting-room/create', { userName: 'Rhea' });
        const code: string = created.body.waitingRoom.waitingRoomId;
        const streams: EventStreamClient[] = [];
        for (let i = 0; i < 2; i++) {
          const guest = new Participant(gatewayUrl);
          const joined = await guest.patch('/api/v1/waiting-room/join', {
            waitingRoomId: code,
            userName: `G${i}`,
          });
          // Once the first guest has seen the second's join, rooms has listed the second as a member in
          // Redis: the gateway admits their stream without asking rooms.
          if (i === 1) await streams[0].waitFor(ROOM_EVENTS.userJoined, 1);
          // Every join so far (the host's and the guests') relayed: a stream hears only what comes next.
          await guest.untilRelayed(code, joined.body.userId, ROOM_EVENTS.userJoined, i + 2);
          const asked = () => metricSum(metricsPort(gatewayUrl), RPC_CALLS, 'rooms.isMember');
          const askedBefore = await asked();
          const stream = await guest.events(code, joined.body.userId);
          await stream.waitFor(ROOM_EVENTS.subscribed);
          if (i === 1) expect(await asked()).toBe(askedBefore);
          streams.push(stream);
        }
        return { code, streams };
      }),
    );
    expect(await metricSum(first, 'forkvote_sse_room_subscriptions')).toBe(1);
    expect(await metricSum(second, 'forkvote_sse_room_subscriptions')).toBe(1);
    const before = [
      await metricSum(first, 'forkvote_sse_room_events_received_total'),
      await metricSum(second, 'forkvote_sse_room_events_received_total'),
    ];

    // 3 joins in room A and 5 in room B, all made through the first gateway's API.
    const joinsPerRoom = [3, 5];
    for (const [index, room] of rooms.entries()) {
      for (let i = 0; i < joinsPerRoom[index]; i++) {
        const joined = await new Participant(stack.url).patch('/api/v1/waiting-room/join', {
          waitingRoomId: room.code,
          userName: `Late ${i}`,
        });
        expect(joined.status).toBe(200);
      }
      for (const stream of room.streams) await stream.waitFor(ROOM_EVENTS.userJoined, joinsPerRoom[index]);
    }
    const received = [
      (await metricSum(first, 'forkvote_sse_room_events_received_total')) - before[0],
      (await metricSum(second, 'forkvote_sse_room_events_received_total')) - before[1],
    ];
    expect(received).toEqual(joinsPerRoom);

    // The last client of each room leaves: both gateways drop their subscription, and hear nothing more.
    for (const room of rooms) for (const stream of room.streams) stream.close();
    for (let i = 0; i < 50; i++) {
      if (
        (await metricSum(first, 'forkvote_sse_room_subscriptions')) +
          (await metricSum(second, 'forkvote_sse_room_subscriptions')) ===
        0
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await metricSum(first, 'forkvote_sse_room_subscriptions')).toBe(0);
    expect(await metricSum(second, 'forkvote_sse_room_subscriptions')).toBe(0);
    const idle = await metricSum(first, 'forkvote_sse_room_events_received_total');
    await new Participant(stack.url).patch('/api/v1/waiting-room/join', {
      waitingRoomId: rooms[0].code,
      userName: 'Nobody listens',
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await metricSum(first, 'forkvote_sse_room_events_received_total')).toBe(idle);
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
    // The host's and the six guests' joins are all relayed before any stream opens.
    await guests[0].person.untilRelayed(code, guests[0].userId, ROOM_EVENTS.userJoined, 7);
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
