import { ROOM_EVENTS } from '@forkvote/contracts';
import { freePort, Participant, signUp, startTestStack, TestStack } from '@forkvote/testing';
import { request as httpRequest } from 'node:http';
import { connect, Socket } from 'node:net';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A kept-alive connection of its own, as a proxy holds one: `ask` sends a liveness probe and awaits it. */
function keptAlive(url: string) {
  const socket: Socket = connect(Number(new URL(url).port), '127.0.0.1');
  const state = { received: '', closed: false };
  socket.setEncoding('latin1');
  socket.on('data', (text: string) => (state.received += text));
  socket.on('close', () => (state.closed = true));
  const answers = () => state.received.split('HTTP/1.1 200').length - 1;
  return {
    state,
    answers,
    socket,
    async ask(): Promise<void> {
      const before = answers();
      socket.write('GET /api/v1/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      for (let i = 0; i < 100 && answers() === before && !state.closed; i++) await sleep(20);
    },
  };
}

/**
 * SIGTERM on a gateway: readiness turns false at once, streams keep flowing through the drain delay,
 * then each stream gets a `retry:` between 1 and 5 s and ends, and the process exits well within 30 s.
 * Idle kept-alive connections neither hold that up nor close before a proxy in front would close them.
 */
describe('gateway shutdown', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('drains: not ready, then retry and end of every stream, then exit', async () => {
    const port = await freePort();
    stack.startOne('gateway', 'gateway-draining', { PORT: String(port), SHUTDOWN_DELAY_MS: '1500' });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 100; i++) {
      if (
        await fetch(`${url}/api/v1/health/ready`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(100);
    }
    expect((await fetch(`${url}/api/v1/health/live`)).status).toBe(200);

    const host = new Participant(url, (await signUp(stack.url, 'monthly', 'Dora Drain')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Dora' });
    const code = created.body.waitingRoom.waitingRoomId;

    // A raw stream, to see the retry field the shutdown writes.
    let raw = '';
    const ended = new Promise<void>((resolve) => {
      const req = httpRequest(
        `${url}/api/v1/waiting-room/events/${code}?userId=${created.body.userId}&userName=Dora`,
        { headers: { Cookie: host.cookieHeader, Accept: 'text/event-stream' } },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (raw += chunk));
          res.on('end', () => resolve());
          res.on('close', () => resolve());
        },
      );
      req.end();
    });
    for (let i = 0; i < 50 && !raw.includes(ROOM_EVENTS.subscribed); i++) await sleep(50);

    // An idle kept-alive connection (a proxy's) does not hold the shutdown up.
    const idle = keptAlive(url);
    await idle.ask();
    expect(idle.answers()).toBe(1);

    const stopped = Date.now();
    const exited = stack.stopOne('gateway-draining');
    await sleep(300);
    const ready = await fetch(`${url}/api/v1/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { draining: boolean }).draining).toBe(true);

    // Still serving during the delay: an event reaches the open stream.
    await new Participant(stack.url).patch('/api/v1/waiting-room/join', {
      waitingRoomId: code,
      userName: 'Late',
    });
    await ended;
    await exited;
    expect(raw).toContain(`event: ${ROOM_EVENTS.userJoined}`);
    const retries = [...raw.matchAll(/^retry: (\d+)$/gm)].map((m) => Number(m[1]));
    const finalRetry = retries.at(-1)!;
    expect(finalRetry).toBeGreaterThanOrEqual(1000);
    expect(finalRetry).toBeLessThanOrEqual(5000);
    expect(Date.now() - stopped).toBeLessThan(10_000);
    expect(idle.state.closed).toBe(true);
  });

  it('keeps an idle connection open past 5 s, so a proxy that sends on it again is answered', async () => {
    const connection = keptAlive(stack.url);
    try {
      await connection.ask();
      expect(connection.answers()).toBe(1);
      // Node's default keep-alive (5 s) would have closed it by now, under a proxy about to reuse it.
      await sleep(6_000);
      expect(connection.state.closed).toBe(false);
      await connection.ask();
      expect(connection.answers()).toBe(2);
    } finally {
      connection.socket.destroy();
    }
  }, 20_000);
});
