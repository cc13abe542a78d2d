import { Logger } from '@nestjs/common';
import { ERROR_CODES } from '@forkvote/contracts';
import { dropRedisPrefix } from '@forkvote/testing';
import type Redis from 'ioredis';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { createRedis } from '../src/redis';
import { REQUESTS_PER_WRITE, streamKeys, StreamsClient } from '../src/transport';

/**
 * The Redis Streams transport against the real Redis: replicas are separate processes (from the built
 * platform library) so one can be killed with SIGKILL while it holds requests.
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
/** `npm run test:cluster` runs this suite on a Redis Cluster. */
const REDIS_CLUSTER = process.env.REDIS_CLUSTER === 'true';
const FIXTURE = join(__dirname, 'fixtures', 'streams-replica.js');

describe('Redis Streams transport', () => {
  let prefix: string;
  let redis: Redis;
  const replicas: ChildProcess[] = [];
  const clients: StreamsClient[] = [];

  function client(options: { timeoutMs?: number; maxLen?: number } = {}): StreamsClient {
    const c = new StreamsClient({
      redis: { url: REDIS_URL, cluster: REDIS_CLUSTER },
      prefix,
      claimIdleMs: 500,
      maxLen: options.maxLen ?? 10_000,
      timeoutMs: options.timeoutMs ?? 10_000,
    });
    clients.push(c);
    return c;
  }

  function startReplica(
    service: string,
    replica: string,
    env: Record<string, string> = {},
  ): Promise<ChildProcess> {
    const child = spawn(process.execPath, [FIXTURE], {
      env: {
        ...process.env,
        REDIS_URL,
        REDIS_CLUSTER: String(REDIS_CLUSTER),
        REDIS_PREFIX: prefix,
        SERVICE: service,
        REPLICA: replica,
        CLAIM_IDLE_MS: '500',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    replicas.push(child);
    return new Promise((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve(child));
      child.once('exit', (code) => reject(new Error(`replica ${replica} exited with ${code}`)));
    });
  }

  async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  const work = (c: StreamsClient, service: string, n: number) =>
    firstValueFrom(c.send<{ n: number; by: string }>(`${service}.work`, { n }));

  async function counts(
    service: string,
    field: 'started' | 'handled' | 'by',
  ): Promise<Record<string, number>> {
    const raw = await redis.hgetall(`${prefix}:test:{${service}}:${field}`);
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
  }

  beforeEach(() => {
    prefix = `fvtest-rpc-${randomBytes(4).toString('hex')}`;
  });

  beforeAll(() => {
    redis = createRedis({ url: REDIS_URL, cluster: REDIS_CLUSTER }, { connectionName: 'test' });
  });

  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((child) => stop(child, 'SIGKILL')));
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await dropRedisPrefix(REDIS_URL, prefix);
  });

  afterAll(async () => {
    await redis.quit();
  });

  it('handles each of 1,000 requests exactly once, spread across two replicas', async () => {
    // No replica dies here, so none may take over another's requests: a claim time far above any pause of a
    // busy machine's event loop (at this suite's 500 ms, a replica stalled that long by a loaded 2-core
    // machine had its requests claimed by the other, and handled twice, as a dead one's would be).
    await Promise.all([
      startReplica('echo', 'a', { HANDLE_DELAY_MS: '2', CLAIM_IDLE_MS: '10000' }),
      startReplica('echo', 'b', { HANDLE_DELAY_MS: '2', CLAIM_IDLE_MS: '10000' }),
    ]);
    const c = client();
    const answers = await Promise.all(Array.from({ length: 1000 }, (_, n) => work(c, 'echo', n)));

    expect(answers.map((a) => a.n)).toEqual(Array.from({ length: 1000 }, (_, n) => n));
    const handled = await counts('echo', 'handled');
    expect(Object.keys(handled)).toHaveLength(1000);
    expect(Object.values(handled).every((count) => count === 1)).toBe(true);
    const by = await counts('echo', 'by');
    expect(by.a + by.b).toBe(1000);
    expect(by.a).toBeGreaterThan(100);
    expect(by.b).toBeGreaterThan(100);
  });

  it('answers every request held by a replica killed with SIGKILL, from the surviving replica, with the same request ids', async () => {
    const doomed = await startReplica('echo', 'doomed', { HANDLE_DELAY_MS: '60000' });
    const c = client({ timeoutMs: 15_000 });
    const pending = Promise.all(Array.from({ length: 20 }, (_, n) => work(c, 'echo', n)));
    // Wait until the doomed replica has taken every request, then kill it mid-work.
    for (let i = 0; i < 100 && Object.keys(await counts('echo', 'started')).length < 20; i++) await sleep(50);
    expect(Object.keys(await counts('echo', 'started'))).toHaveLength(20);
    await startReplica('echo', 'survivor');
    await stop(doomed, 'SIGKILL');

    const answers = await pending;
    expect(answers.every((a) => a.by === 'survivor')).toBe(true);
    expect(answers.map((a) => a.n).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    // The survivor saw the same request ids the dead replica saw, so a handler can deduplicate retries.
    const idsDoomed = await redis.hgetall(`${prefix}:test:{echo}:request-ids:doomed`);
    const idsSurvivor = await redis.hgetall(`${prefix}:test:{echo}:request-ids:survivor`);
    expect(idsSurvivor).toEqual(idsDoomed);
    // Nothing is left unacknowledged. A replica replies first and acknowledges after (see StreamsServer), and
    // on a cluster the reply channel and the stream may live on different shards: the last acknowledgements
    // can land a moment after the last answer, so they are waited for (a second at most).
    const unacknowledged = async () =>
      ((await redis.xpending(streamKeys.requests(prefix, 'echo'), 'echo')) as [number])[0];
    for (let i = 0; i < 20 && (await unacknowledged()) > 0; i++) await sleep(50);
    expect(await unacknowledged()).toBe(0);
  });

  it('never hands a slow request of a live replica to another replica', async () => {
    // Handlers take three times the claim idle time; the live replicas keep their claims fresh.
    await Promise.all([
      startReplica('slow', 'a', { HANDLE_DELAY_MS: '1500' }),
      startReplica('slow', 'b', { HANDLE_DELAY_MS: '1500' }),
    ]);
    const c = client();
    await Promise.all(Array.from({ length: 10 }, (_, n) => work(c, 'slow', n)));
    const started = await counts('slow', 'started');
    expect(Object.keys(started)).toHaveLength(10);
    expect(Object.values(started).every((count) => count === 1)).toBe(true);
  });

  it('fails a call with a clear 503 error when no replica answers in time', async () => {
    const c = client({ timeoutMs: 300 });
    const started = Date.now();
    await expect(work(c, 'nobody', 1)).rejects.toEqual({
      statusCode: 503,
      code: ERROR_CODES.serviceTimeout,
      message: 'The nobody service did not answer in time. Please try again.',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('answers the calls still waiting with a 503 when the client closes', async () => {
    const c = client({ timeoutMs: 5000 });
    const waiting = Promise.allSettled([work(c, 'nobody', 1), work(c, 'nobody', 2)]);
    await sleep(50);
    await c.close();
    const closed = {
      statusCode: 503,
      code: ERROR_CODES.serviceTimeout,
      message: 'The service client was closed',
    };
    expect(await waiting).toEqual([
      { status: 'rejected', reason: closed },
      { status: 'rejected', reason: closed },
    ]);
  });

  it('answers a 503 of its own, never the Redis client error, when closed while still connecting', async () => {
    const closed = {
      statusCode: 503,
      code: ERROR_CODES.serviceTimeout,
      message: 'The service client was closed',
    };
    // Closed at once, a moment into subscribing to replies, and after: each call fails the same way.
    for (const delayMs of [0, 1, 3, 10, 30]) {
      const c = client({ timeoutMs: 5000 });
      const waiting = Promise.allSettled([work(c, 'nobody', 1), work(c, 'nobody', 2)]);
      await sleep(delayMs);
      await c.close();
      expect(await waiting).toEqual([
        { status: 'rejected', reason: closed },
        { status: 'rejected', reason: closed },
      ]);
      await expect(work(c, 'nobody', 3)).rejects.toEqual(closed);
    }
  });

  it('writes every few requests at once, not only when their event-loop turn ends', async () => {
    await startReplica('prompt', 'p');
    const c = client();
    // The first call also waits for the client's connections; the later ones are measured.
    await expect(work(c, 'prompt', 0)).resolves.toMatchObject({ n: 0 });
    const stream = streamKeys.requests(prefix, 'prompt');
    /** What Redis holds after the rest of a long turn (a gateway parsing a burst of requests). */
    const lengthAfterLongTurn = async () => {
      for (let i = 0; i < 10; i++) await null; // the calls' own promise steps run; no I/O or timer does
      const until = Date.now() + 200;
      while (Date.now() < until);
      // Sent now: a request still waiting for the turn's end reaches Redis after this XLEN.
      return redis.xlen(stream);
    };
    const calls = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => c.request('prompt.work', { n: from + i }));
    // Fewer than REQUESTS_PER_WRITE: they wait for the turn to end.
    const few = calls(1, REQUESTS_PER_WRITE - 1);
    expect(await lengthAfterLongTurn()).toBe(1);
    // …and leave once it has (Redis may read another connection's XLEN before them).
    await new Promise((resolve) => setImmediate(resolve));
    for (let tries = 0; (await redis.xlen(stream)) < REQUESTS_PER_WRITE && tries < 50; tries++)
      await sleep(10);
    expect(await redis.xlen(stream)).toBe(REQUESTS_PER_WRITE);
    // REQUESTS_PER_WRITE of them: written at once, before the turn ends.
    const enough = calls(REQUESTS_PER_WRITE, REQUESTS_PER_WRITE);
    expect(await lengthAfterLongTurn()).toBe(2 * REQUESTS_PER_WRITE);
    const answers = await Promise.all([...few, ...enough]);
    expect(answers.map((answer) => (answer as { n: number }).n)).toEqual(
      Array.from({ length: 2 * REQUESTS_PER_WRITE - 1 }, (_, i) => i + 1),
    );
  });

  it('fails only the request Redis refuses when two go to different streams at once', async () => {
    await startReplica('echo', 'e1');
    const c = client({ timeoutMs: 5000 });
    const warnings = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      // A plain string where the broken service's request stream should be: Redis refuses that XADD.
      await redis.set(streamKeys.requests(prefix, 'broken'), 'not a stream');
      const [ok, refused] = await Promise.allSettled([work(c, 'echo', 7), work(c, 'broken', 8)]);
      expect(ok).toMatchObject({ status: 'fulfilled', value: { n: 7 } });
      // The person is told which part of ForkVote is out of reach; what Redis said is for the log only.
      expect(refused).toMatchObject({
        status: 'rejected',
        reason: {
          statusCode: 503,
          code: ERROR_CODES.serviceTimeout,
          message: 'The broken service cannot be reached. Please try again.',
        },
      });
      expect(warnings.mock.calls.map(([line]) => String(line))).toContainEqual(
        expect.stringMatching(/^Redis refused 1 request\(s\) to .*broken.*: WRONGTYPE/),
      );
    } finally {
      warnings.mockRestore();
    }
  });

  it('handles a request sent before any replica runs once one starts', async () => {
    const c = client({ timeoutMs: 10_000 });
    const answer = work(c, 'late', 7);
    await sleep(500);
    await startReplica('late', 'first');
    await expect(answer).resolves.toEqual({ n: 7, by: 'first' });
  });

  it('drops a request whose caller has given up instead of running it late', async () => {
    const c = client({ timeoutMs: 200 });
    await expect(work(c, 'expired', 1)).rejects.toMatchObject({ statusCode: 503 });
    await startReplica('expired', 'late');
    await sleep(800);
    expect(await counts('expired', 'started')).toEqual({});
  });

  it('keeps the request stream bounded', async () => {
    await startReplica('bounded', 'a');
    const c = client({ maxLen: 100 });
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => work(c, 'bounded', batch * 100 + i)));
    }
    const length = await redis.xlen(streamKeys.requests(prefix, 'bounded'));
    // MAXLEN ~ trims whole radix-tree nodes (100 entries each by default), so allow one node of slack.
    expect(length).toBeLessThanOrEqual(250);
    expect(Object.keys(await counts('bounded', 'handled'))).toHaveLength(1000);
  });

  it('fans an event out to every interested service, once per service', async () => {
    await Promise.all([
      startReplica('listener1', 'x', { EVENT_PATTERN: 'audit.happened' }),
      startReplica('listener1', 'y', { EVENT_PATTERN: 'audit.happened' }),
      startReplica('listener2', 'z', { EVENT_PATTERN: 'audit.happened' }),
    ]);
    const c = client();
    await lastValueFrom(c.emit('audit.happened', { n: -1 }).pipe(toArray()));
    for (let n = 0; n < 50; n++) await lastValueFrom(c.emit('audit.happened', { n }).pipe(toArray()));
    const seen = async (service: string) =>
      Object.values(await redis.hgetall(`${prefix}:test:events:{${service}}`)).map(Number);
    for (
      let i = 0;
      i < 50 && ((await seen('listener1')).length < 51 || (await seen('listener2')).length < 51);
      i++
    ) {
      await sleep(100);
    }
    for (const service of ['listener1', 'listener2']) {
      const perEvent = await seen(service);
      expect(perEvent).toHaveLength(51);
      expect(perEvent.every((count) => count === 1)).toBe(true);
    }
  });
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
