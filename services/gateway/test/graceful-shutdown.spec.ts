import { ROOM_EVENTS } from '@forkvote/contracts';
import { freePort, Participant, signUp, startTestStack, TestStack } from '@forkvote/testing';
import { request as httpRequest } from 'node:http';

/**
 * SIGTERM on a gateway: readiness turns false at once, streams keep flowing through the drain delay,
 * then each stream gets a `retry:` between 1 and 5 s and ends, and the process exits well within 30 s.
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
      await new Promise((resolve) => setTimeout(resolve, 100));
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
    for (let i = 0; i < 50 && !raw.includes(ROOM_EVENTS.subscribed); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));

    const stopped = Date.now();
    const exited = stack.stopOne('gateway-draining');
    await new Promise((resolve) => setTimeout(resolve, 300));
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
  });
});
