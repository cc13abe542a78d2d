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

/**
 * Two rooms replicas whose relays poll only every ten minutes: the one holding the relay lock must still
 * publish the other's events at once, woken by the outbox's NOTIFY on commit. Joins are spread over both
 * replicas by their consumer group; each join's USER_JOINED must reach the host's stream within seconds.
 */
describe('the outbox with two rooms replicas', () => {
  let stack: TestStack;
  let stream: EventStreamClient | undefined;
  const healthPorts: number[] = [];

  beforeAll(async () => {
    healthPorts.push(await freePort(), await freePort());
    const slowPoll = { OUTBOX_POLL_MS: '600000' };
    stack = await startTestStack(slowPoll, undefined, {
      rooms: { HEALTH_PORT: String(healthPorts[0]) },
    });
    stack.startOne('rooms', 'rooms-2', { ...slowPoll, HEALTH_PORT: String(healthPorts[1]) });
    for (let i = 0; i < 100; i++) {
      const ready = await fetch(`http://127.0.0.1:${healthPorts[1]}/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  afterAll(async () => {
    stream?.close();
    await stack?.stop();
  });

  it("publishes each replica's events on commit, not at the next poll", async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Hana' });
    expect(created.status).toBe(200);
    const code = created.body.waitingRoom.waitingRoomId as string;
    // The host's own USER_JOINED is relayed before the stream opens, so the stream counts guests only.
    await host.untilRelayed(code, created.body.userId, ROOM_EVENTS.userJoined, 1);
    stream = await host.events(code, created.body.userId);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    const joins = (port: number) =>
      metricSum(port, 'forkvote_rpc_server_duration_seconds_count', 'pattern="rooms.join"');

    // Until both replicas have served joins (the consumer group hands each request to one of them).
    let guests = 0;
    while (guests < 12 || (await joins(healthPorts[0])) === 0 || (await joins(healthPorts[1])) === 0) {
      expect(guests).toBeLessThan(40);
      guests += 1;
      const guest = new Participant(stack.url);
      const joined = await guest.patch('/api/v1/waiting-room/join', {
        waitingRoomId: code,
        userName: `Guest ${guests}`,
      });
      expect(joined.status).toBe(200);
      // Published within seconds, whichever replica committed it.
      await stream.waitFor(ROOM_EVENTS.userJoined, guests, 3000);
    }
    expect(await joins(healthPorts[0])).toBeGreaterThan(0);
    expect(await joins(healthPorts[1])).toBeGreaterThan(0);
  });
});
