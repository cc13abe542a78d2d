// `npm run bench:rpc`: round-trip latency and throughput of our Redis Streams transport next to the stock
// NestJS Redis (pub/sub) transport, same machine, same Redis, same handler, one run.
// Each server runs in its own process; the caller runs here. Uses the built libs (npm run build first).
'use strict';
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { firstValueFrom } = require('rxjs');

require('@nestjs/common').Logger.overrideLogger(['error', 'warn']);
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map((pair) => pair.trim().split(/\s+/)),
);
const SEQUENTIAL = Number(args.sequential ?? 2000);
const TOTAL = Number(args.requests ?? 20000);
const CONCURRENCY = Number(args.concurrency ?? 64);
const JSON_OUTPUT = 'json' in args;

function redisHostPort() {
  const u = new URL(REDIS_URL);
  return { host: u.hostname, port: Number(u.port || 6379) };
}

/** Server side, run as a child process: `node rpc-bench.js --serve streams|stock --prefix P`. */
async function serve(kind, prefix) {
  const handler = async (data) => ({ echo: data.n });
  let server;
  if (kind === 'streams') {
    const { StreamsServer } = require('@forkvote/platform');
    server = new StreamsServer({
      service: 'bench',
      redis: { url: REDIS_URL, cluster: false },
      prefix,
      claimIdleMs: 15000,
      maxLen: 100000,
    });
  } else {
    const { ServerRedis } = require('@nestjs/microservices');
    server = new ServerRedis({ ...redisHostPort() });
  }
  server.addHandler(`bench.echo`, handler);
  server.listen(() => process.stdout.write('ready\n'));
  process.on('SIGTERM', async () => {
    await server.close();
    process.exit(0);
  });
}

function startServer(kind, prefix) {
  const child = spawn(process.execPath, [__filename, '--serve', kind, '--prefix', prefix], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) =>
    child.stdout.on('data', (c) => c.toString().includes('ready') && resolve(child)),
  );
}

function createClient(kind, prefix) {
  if (kind === 'streams') {
    const { StreamsClient } = require('@forkvote/platform');
    return new StreamsClient({
      redis: { url: REDIS_URL, cluster: false },
      prefix,
      claimIdleMs: 15000,
      maxLen: 100000,
      timeoutMs: 10000,
    });
  }
  const { ClientRedis } = require('@nestjs/microservices');
  return new ClientRedis({ ...redisHostPort() });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(kind) {
  const prefix = `fvbench-${randomBytes(3).toString('hex')}`;
  const server = await startServer(kind, prefix);
  const client = createClient(kind, prefix);
  await client.connect();
  const call = (n) => firstValueFrom(client.send('bench.echo', { n }));
  for (let i = 0; i < 200; i++) await call(i); // warm-up

  const latencies = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t = process.hrtime.bigint();
    await call(i);
    latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  latencies.sort((a, b) => a - b);

  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) await call(next++);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;

  await client.close();
  server.kill('SIGTERM');
  if (kind === 'streams') {
    const Redis = require('ioredis');
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  }
  return {
    transport: kind === 'streams' ? 'redis-streams (ours)' : 'redis pub/sub (stock)',
    p50Ms: +percentile(latencies, 50).toFixed(3),
    p99Ms: +percentile(latencies, 99).toFixed(3),
    maxMs: +latencies[latencies.length - 1].toFixed(3),
    requestsPerSecond: Math.round(TOTAL / seconds),
  };
}

async function main() {
  if (args.serve) return serve(args.serve, args.prefix);
  const results = [];
  for (const kind of ['streams', 'stock']) results.push(await measure(kind));
  if (JSON_OUTPUT) {
    console.log(
      JSON.stringify({ sequential: SEQUENTIAL, requests: TOTAL, concurrency: CONCURRENCY, results }, null, 2),
    );
  } else {
    console.log(
      `Round trip of one request (${SEQUENTIAL} sequential) and throughput (${TOTAL} requests, ${CONCURRENCY} in flight):`,
    );
    console.table(results);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
