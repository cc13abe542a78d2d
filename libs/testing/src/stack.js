// @ts-check
/**
 * Throw-away stacks for the system tests, the Playwright setup and the benchmarks: every process of
 * ForkVote, started by the same launcher as `npm start`, against a database and a Redis prefix of its own
 * on a free port, all dropped on stop. Also a private redis-server for tests that kill Redis.
 * CommonJS on purpose: jest, Playwright and plain node can all require it without a build step.
 */
'use strict';
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const net = require('node:net');
const {
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  ensureDatabase,
  redisPing,
  sleep,
  startProcesses,
  withDatabase,
} = require('@forkvote/launcher');

async function dropDatabase(url) {
  const { Client } = require('pg');
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * Deletes every Redis key under `prefix:` (a test stack's streams, room logs, sessions, caches); on a Redis
 * Cluster (REDIS_CLUSTER=true), on each of its masters.
 */
async function dropRedisPrefix(redisUrl, prefix) {
  const Redis = require('ioredis');
  const cluster = process.env.REDIS_CLUSTER === 'true';
  const client = cluster
    ? new Redis.Cluster(
        redisUrl.split(',').map((url) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) })),
        { lazyConnect: true },
      )
    : new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  await client.connect();
  try {
    for (const redis of cluster ? client.nodes('master') : [client]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        // One key per command: on a cluster, keys of one call must share a slot.
        await Promise.all(keys.map((key) => redis.unlink(key)));
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    client.disconnect();
  }
}

/**
 * A redis-server of a test's own on `port`, keeping nothing on disk, for tests that kill Redis and start it
 * again empty. Resolves when it answers.
 * @param {number} port
 */
async function startRedisServer(port) {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100 && !(await redisPing(url)); i++) await sleep(100);
  if (!(await redisPing(url))) throw new Error(`redis-server did not start on ${port}`);
  return child;
}

/**
 * A Redis Cluster of a test's own: three masters (`redis-server --cluster-enabled yes`, nothing on disk)
 * on free ports, their 16,384 slots split by `redis-cli --cluster create`. Resolves when every node says
 * the cluster is ok, with the nodes' URLs as REDIS_URL takes them (comma-separated) and a `stop`.
 */
async function startRedisCluster(masters = 3) {
  const { mkdtempSync, rmSync } = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const { execFileSync } = require('node:child_process');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'forkvote-cluster-'));
  const ports = [];
  for (let i = 0; i < masters; i++) ports.push(await freePort());
  const children = ports.map((port) =>
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        path.join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '2000',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
            child.once('exit', resolve);
            child.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const url = `redis://127.0.0.1:${port}`;
      for (let i = 0; i < 100 && !(await redisPing(url)); i++) await sleep(100);
    }
    execFileSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      { stdio: 'ignore', timeout: 30_000 },
    );
    const healthy = (port) =>
      execFileSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' }).includes(
        'cluster_state:ok',
      );
    for (let i = 0; i < 100 && !ports.every(healthy); i++) await sleep(100);
    if (!ports.every(healthy)) throw new Error(`the Redis Cluster on ${ports.join(', ')} did not become ok`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: ports.map((port) => `redis://127.0.0.1:${port}`).join(','), ports, children, stop };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * A throw-away stack for tests: its own database and Redis prefix, a free port, dropped afterwards.
 * @param {{ env?: Record<string,string>, output?: (line: string) => void, services?: string[] }} options
 */
async function startTestStack(options = {}) {
  const base = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const databaseUrl = withDatabase(base, `forkvote_test_${id}`);
  await ensureDatabase(databaseUrl);
  const port = await freePort();
  const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  const quiet = process.env.STACK_LOGS ? undefined : () => undefined;
  const stack = await startProcesses({
    port,
    output: options.output ?? quiet,
    services: options.services,
    processEnv: options.processEnv,
    env: {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      // `npm run test:cluster` points the suites at a Redis Cluster of their own.
      REDIS_CLUSTER: process.env.REDIS_CLUSTER || '',
      REDIS_PREFIX: `fvtest-${id}`,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PLACES_PROVIDER: 'demo',
      // Tests read password reset links from the development outbox.
      SERVE_DEV_OUTBOX: 'true',
      // Many stacks run at once: no fixed metrics port (a test that reads metrics picks its own).
      METRICS_PORT: '0',
      // Where the test's browser finds the gateway: state changes must come from this origin.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...options.env,
    },
  });
  return {
    ...stack,
    databaseUrl,
    redisPrefix: `fvtest-${id}`,
    async stop() {
      await stack.stop();
      // Both stores are shared with other runs: leave nothing behind in either.
      await dropDatabase(databaseUrl).catch(() => undefined);
      await dropRedisPrefix(options.env?.REDIS_URL ?? redisUrl, `fvtest-${id}`).catch(() => undefined);
    },
  };
}

module.exports = {
  startRedisCluster,
  startTestStack,
  startRedisServer,
  freePort,
  ensureDatabase,
  dropDatabase,
  dropRedisPrefix,
};
