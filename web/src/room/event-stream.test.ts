import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RECONNECT, RoomEventStream, StreamStatus } from './event-stream';

/** A server's answer: an event stream that sends `text` and then stays open, or ends when `end` is set. */
function sse(text: string, end = false): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      if (end) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const SUBSCRIBED = 'event: SUBSCRIBED_TO_SSE\ndata: {}\n\n';

function harness(answers: (() => Response | Promise<Response>)[]) {
  const requests: { headers: Record<string, string> }[] = [];
  const statuses: StreamStatus[] = [];
  const events: [string, string, string | undefined][] = [];
  let gone = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      requests.push({ headers: init.headers as Record<string, string> });
      const next = answers.shift();
      if (!next) return new Promise<Response>(() => undefined);
      return next();
    }),
  );
  let resume = 'none-yet';
  const stream = new RoomEventStream(
    '/events',
    {
      resumeFrom: async () => resume,
      onEvent: (name, data, id) => {
        events.push([name, data, id]);
        if (id) resume = id;
      },
      onStatus: (status) => statuses.push(status),
      onGone: () => (gone += 1),
    },
    () => 0.5,
  );
  return { stream, requests, statuses, events, gone: () => gone };
}

describe('RoomEventStream', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('resumes every connect after the last event id it saw, and waits as long as the server asks', async () => {
    const h = harness([
      () => sse(`retry: 3000\n\n${SUBSCRIBED}id: 5-0\nevent: USER_JOINED\ndata: {"users":[]}\n\n`, true),
      () => sse(SUBSCRIBED),
    ]);
    h.stream.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.requests[0].headers['Last-Event-ID']).toBe('none-yet');
    expect(h.events.map(([name, , id]) => [name, id])).toEqual([
      ['SUBSCRIBED_TO_SSE', undefined],
      ['USER_JOINED', '5-0'],
    ]);
    expect(h.statuses).toEqual(['connecting', 'connected', 'retrying']);
    // The backoff says 1 s, the server 3 s: the server wins.
    await vi.advanceTimersByTimeAsync(2_900);
    expect(h.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(h.requests).toHaveLength(2);
    expect(h.requests[1].headers['Last-Event-ID']).toBe('5-0');
    expect(h.statuses.at(-1)).toBe('connected');
    h.stream.stop();
  });

  it('gives up after the SPEC attempts, then reconnects at once when asked', async () => {
    const failures = Array.from(
      { length: RECONNECT.attempts + 1 },
      () => () => Promise.reject(new TypeError('down')),
    );
    const h = harness([...failures, () => sse(SUBSCRIBED)]);
    h.stream.start();
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000 + 8000 + 16_000 + 100);
    expect(h.requests).toHaveLength(RECONNECT.attempts + 1);
    expect(h.statuses.at(-1)).toBe('gaveUp');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.requests).toHaveLength(RECONNECT.attempts + 1);
    h.stream.reconnectNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.requests).toHaveLength(RECONNECT.attempts + 2);
    expect(h.statuses.at(-1)).toBe('connected');
    h.stream.stop();
  });

  it('treats a silent stream as dropped', async () => {
    const h = harness([() => sse(SUBSCRIBED), () => sse(SUBSCRIBED)]);
    h.stream.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.statuses.at(-1)).toBe('connected');
    await vi.advanceTimersByTimeAsync(35_000 + 1000 + 100);
    expect(h.requests).toHaveLength(2);
    h.stream.stop();
  });

  it('stops for good when the server says the browser is no longer in the room', async () => {
    const h = harness([() => new Response('{}', { status: 403 })]);
    h.stream.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.gone()).toBe(1);
    expect(h.requests).toHaveLength(1);
  });
});
