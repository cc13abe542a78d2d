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
} = require('@forkvote/scripts/stack');

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

/** Deletes every Redis key under `prefix:` (a test stack's streams, room logs, sessions, caches). */
async function dropRedisPrefix(redisUrl, prefix) {
  const Redis = require('ioredis');
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
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
      REDIS_PREFIX: `fvtest-${id}`,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PLACES_PROVIDER: 'demo',
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
  startTestStack,
  startRedisServer,
  freePort,
  ensureDatabase,
  dropDatabase,
  dropRedisPrefix,
};
