import { randomBytes } from 'node:crypto';
import { StreamsClient, StreamsServer } from '../src/transport';

/**
 * What a service's /live reads: how long its stream consumer has gone without going round. An idle
 * consumer goes round after every blocking read; one whose handlers all hang stops, and the figure grows.
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a stream consumer that stops going round', () => {
  const prefix = `fvtest-live-${randomBytes(4).toString('hex')}`;
  const options = { redis: { url: REDIS_URL, cluster: false }, prefix, claimIdleMs: 60_000, maxLen: 1000 };
  // One request at a time, blocking reads of 100 ms: a stall shows 1.1 s after the last round.
  const server = new StreamsServer({ ...options, service: 'stuck', blockMs: 100, maxInFlight: 1 });
  const client = new StreamsClient({ ...options, timeoutMs: 10_000 });
  let release: () => void = () => undefined;

  beforeAll(async () => {
    server.addHandler('stuck.wait', () => new Promise<void>((resolve) => (release = resolve)));
    server.addHandler('stuck.echo', async () => 'ok');
    await new Promise<void>((resolve, reject) =>
      server.listen((err?: unknown) => (err ? reject(err) : resolve())),
    );
  });

  afterAll(async () => {
    release();
    await client.close();
    await server.close();
  });

  it('is live while idle, stalled while its only slot hangs, and live again when it frees', async () => {
    expect(await client.request('stuck.echo', {})).toBe('ok');
    await sleep(1500);
    expect(server.stalledForMs()).toBe(0);

    const waiting = client.request('stuck.wait', {});
    await sleep(1800);
    expect(server.stalledForMs()).toBeGreaterThan(0);

    release();
    await waiting;
    await sleep(300);
    expect(server.stalledForMs()).toBe(0);
  });
});
