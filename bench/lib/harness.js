// @ts-check
/** Shared pieces of the benchmark harnesses: arguments, a stack, a subscribed host, process metrics. */
'use strict';
const { readdirSync, readFileSync } = require('node:fs');
const { startTestStack } = require('@forkvote/testing/src/stack');

/** `--clients 500 --rooms 50 --json` → { clients: '500', rooms: '50', json: true } */
function parseArgs(argv = process.argv.slice(2)) {
  const args = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const key = argv[i].slice(2);
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('--')) args[key] = true;
    else args[key] = argv[++i];
  }
  return args;
}

/**
 * A throw-away stack (own database and Redis prefix) with rate limits off and `env` on top (and
 * `processEnv[name]` for one process only), or the one at `url`.
 */
async function stackFor(args, env = {}, output = undefined, processEnv = undefined) {
  if (args.url)
    return {
      url: String(args.url),
      gatewayPid: Number(args['gateway-pid']) || null,
      stop: async () => undefined,
    };
  const stack = await startTestStack({
    env: { RATE_LIMIT_SCALE: '0', LOG_LEVEL: 'error', RPC_TIMEOUT_MS: '15000', ...env },
    processEnv,
    output,
  });
  await stack.waitHealthy(90_000);
  return { url: stack.url, gatewayPid: stack.children.get('gateway').pid, stack, stop: () => stack.stop() };
}

function cookieOf(response, name) {
  for (const cookie of response.headers.getSetCookie()) {
    if (cookie.startsWith(`${name}=`)) return cookie.split(';')[0];
  }
  throw new Error(`no ${name} cookie in answer ${response.status}`);
}

async function call(url, method, path, body, headers = {}) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
  });
  if (response.status >= 400)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** Registers a host, completes the offline checkout and logs in; answers the session cookie. */
async function subscribedHost(url) {
  const email = `bench.${Date.now().toString(36)}@example.com`;
  const registered = await call(url, 'POST', '/api/v1/auth/register', {
    email,
    password: 'bench-password',
    name: 'Bench Host',
    plan: 'lifetime',
    acceptTermsOfService: true,
    recaptchaToken: 'dev-recaptcha-token',
  });
  const { stripeCheckoutUrl } = await registered.json();
  // Only the registering browser (its checkout cookie) may complete a local checkout.
  await call(url, 'POST', `${stripeCheckoutUrl}/complete`, undefined, {
    Cookie: cookieOf(registered, 'fv_checkout'),
  });
  const login = await call(url, 'POST', '/api/v1/auth/login', { email, password: 'bench-password' });
  return cookieOf(login, 'fv_session');
}

/** The claims of a room cookie (a JWT): benches need the room's id, which no answer gives. */
function roomIdOf(cookie) {
  const payload = cookie.split('=')[1].split('.')[1];
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).roomId;
}

/** Creates `count` rooms for the host: each room's code, id, host token and the host's own member cookie. */
function createRooms(url, hostCookie, count) {
  return pool(Array.from({ length: count }), 20, async () => {
    const created = await call(
      url,
      'POST',
      '/api/v1/waiting-room/create',
      { userName: 'Host' },
      { Cookie: hostCookie },
    );
    const answer = await created.json();
    const cookie = cookieOf(created, 'fv_room');
    return {
      code: answer.waitingRoom.waitingRoomId,
      roomId: roomIdOf(cookie),
      token: answer.token,
      host: { userId: answer.userId, cookie },
    };
  });
}

/** The guest a join answered (autocannon's headers and body), with the room cookie it set. */
function joinedMember(headers, body) {
  const key = Object.keys(headers).find((name) => name.toLowerCase() === 'set-cookie');
  const setCookie = [].concat(key ? headers[key] : []).find((c) => c.startsWith('fv_room='));
  const answer = JSON.parse(body);
  return { code: answer.waitingRoom.waitingRoomId, userId: answer.userId, cookie: setCookie.split(';')[0] };
}

/** A member's ballot as an autocannon request: a yes for each of `placeIds`. */
function voteRequest(member, placeIds) {
  return {
    method: 'PATCH',
    path: '/api/v1/waiting-room/vote',
    headers: { 'content-type': 'application/json', cookie: member.cookie },
    body: JSON.stringify({
      waitingRoomId: member.code,
      userId: member.userId,
      votes: placeIds.map((placeId) => ({ placeId, voteType: 'up' })),
    }),
  };
}

/** Sends a worker process a message and resolves with its first answer of `answerType`. */
function ask(worker, message, answerType) {
  return new Promise((resolve) => {
    const onMessage = (answer) => {
      if (answer.type !== answerType) return;
      worker.off('message', onMessage);
      resolve(answer);
    };
    worker.on('message', onMessage);
    worker.send(message);
  });
}

/** Runs a bench's `main` when its file is the program, and exits 1 on an error. */
function runMain(module, main) {
  if (require.main !== module) return;
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** Runs `task` over `items` with at most `concurrency` in flight. */
async function pool(items, concurrency, task) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index], index);
      }
    }),
  );
  return results;
}

/** Resident memory of a process in bytes (Linux). */
function rssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** CPU seconds (user + system) a process has used (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds used so far by each process that works for a request: the stack's processes by name,
 * PostgreSQL's and Redis's processes, and this harness with its load generator. `cpuPerRequest` turns two
 * snapshots into where a phase's CPU went (Linux).
 */
function cpuSnapshot(children = new Map()) {
  const usage = process.cpuUsage();
  /** @type {Map<string, { group: string, seconds: number }>} by pid */
  const processes = new Map([['self', { group: 'loadgen', seconds: (usage.user + usage.system) / 1e6 }]]);
  // The whole machine's busy time (user, nice, system, irq, softirq, steal), for what no process shows.
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .split(/\s+/)
    .slice(1)
    .map(Number);
  processes.set('machine', {
    group: 'machine',
    seconds: (user + nice + system + irq + softirq + steal) / 100,
  });
  const names = new Map([...children].map(([name, child]) => [String(child.pid), name]));
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const group =
        names.get(pid) ?? (comm === 'postgres' ? 'postgres' : comm === 'redis-server' ? 'redis' : null);
      if (!group) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      processes.set(pid, { group, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // The process ended while we looked.
    }
  }
  return processes;
}

/**
 * CPU milliseconds per request of each part between two snapshots, their sum (`total`), and the whole
 * machine's busy time (`machine`: includes the kernel's network work and any other process). A process that started
 * in between counts from zero (a PostgreSQL autovacuum worker, say); one that ended in between is missed.
 */
function cpuPerRequest(before, after, requests) {
  const seconds = {};
  for (const [pid, { group, seconds: now }] of after) {
    seconds[group] = (seconds[group] ?? 0) + now - (before.get(pid)?.seconds ?? 0);
  }
  const row = {};
  let total = 0;
  for (const [group, used] of Object.entries(seconds)) {
    const ms = (used * 1000) / requests;
    if (group !== 'machine') total += ms;
    if (ms >= 0.0005) row[group] = Math.round(ms * 1000) / 1000;
  }
  row.total = Math.round(total * 1000) / 1000;
  return row;
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
  const round = (v) => Math.round(v * 100) / 100;
  return { p50: round(at(50)), p95: round(at(95)), p99: round(at(99)), max: round(sorted.at(-1) ?? NaN) };
}

/**
 * Asks a Node process started with `--inspect` (its `ws://` inspector address) for a full garbage
 * collection, so a memory reading after it counts what is held, not garbage waiting for the collector.
 */
async function collectGarbage(inspectorUrl) {
  const WebSocket = require('ws');
  const socket = new WebSocket(inspectorUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await new Promise((resolve) => {
    socket.on('message', (raw) => JSON.parse(String(raw)).id === 1 && resolve(undefined));
    socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
  });
  socket.close();
}

/** The inspector address a process printed (`Debugger listening on ws://…`), from one line of its output. */
const inspectorUrlIn = (line) => /Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1];

const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * The sums and counts of a process's histograms, read from its Prometheus `/metrics` on `port`: keyed by
 * the series' name and labels as written there (`forkvote_rpc_server_duration_seconds_sum{…}`).
 * @returns {Promise<Map<string, number>>}
 */
async function scrapeSums(port) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const values = new Map();
  for (const line of text.split('\n')) {
    const match = /^(\w+_(?:sum|count))(\{[^}]*\})? (\S+)$/.exec(line);
    if (match) values.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  return values;
}

module.exports = {
  ask,
  joinedMember,
  voteRequest,
  collectGarbage,
  createRooms,
  roomIdOf,
  runMain,
  inspectorUrlIn,
  parseArgs,
  stackFor,
  scrapeSums,
  call,
  cookieOf,
  subscribedHost,
  pool,
  rssBytes,
  cpuSeconds,
  cpuSnapshot,
  cpuPerRequest,
  percentiles,
  mib,
};
