// @ts-check
/**
 * `npm run bench:guard -- --baseline DIR [--rounds 4] [--requests 8000] [--connections 40] [--json]`
 *
 * This gateway against another build of it, on one stack. DIR is a checkout with a built gateway (for
 * example a git worktree of an earlier commit after `npm ci && npm run build`); its gateway runs beside
 * this one, against the same services, database and Redis. Each round sends `--requests` joins and then
 * their votes through one gateway and then the other (the order swaps every round), with `--connections`
 * in flight, and reads each gateway process's CPU time from /proc. It prints, per gateway, the median
 * throughput and CPU per call over the rounds, and the ratios this / baseline: the guard of a change to the
 * gateway is that neither throughput falls nor CPU per call rises past what it allows.
 */
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const autocannon = require('autocannon');
const { freePort } = require('@forkvote/testing/src/stack');
const {
  call,
  cpuSeconds,
  joinedMember,
  parseArgs,
  pool,
  runMain,
  stackFor,
  subscribedHost,
  voteRequest,
} = require('../lib/harness');

const ROOT = path.join(__dirname, '..', '..');
const NYC = { latitude: 40.7484, longitude: -73.9967, radiusInMeters: 8046.7, maxResultCount: 20 };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The baseline's gateway on a port of its own, with the env the stack gave its own gateway. */
async function startBaseline(dir, stack) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '--enable-source-maps',
      // PROFILE=baseline writes its CPU profile into .profiles/, as PROFILE=gateway does this one's.
      ...((process.env.PROFILE ?? '').split(',').includes('baseline')
        ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, '.profiles')}`]
        : []),
      path.join(dir, 'services', 'gateway', 'dist', 'main.js'),
    ],
    {
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: stack.databaseUrl,
        REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        REDIS_CLUSTER: process.env.REDIS_CLUSTER || '',
        REDIS_PREFIX: stack.redisPrefix,
        NODE_ENV: 'test',
        LOG_LEVEL: 'error',
        RATE_LIMIT_SCALE: '0',
        RPC_TIMEOUT_MS: '15000',
        METRICS_PORT: '0',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        WEB_DIST: path.join(ROOT, 'web', 'dist'),
        INSTANCE_ID: 'baseline-gateway',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    const ok = await fetch(`${url}/api/v1/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the baseline gateway from ${dir} did not become ready`);
}

/** `amount` requests built by `build(i)`, `connections` in flight; answers the rate and what 200s said. */
function closedLoop(url, amount, connections, build) {
  let index = 0;
  const answers = [];
  return new Promise((resolve, reject) => {
    // Timed to the last answer: autocannon notices the end of an amount only at its next one-second tick.
    const started = process.hrtime.bigint();
    let last = started;
    autocannon(
      {
        url,
        amount,
        connections,
        requests: [
          {
            setupRequest: (req) => ({ ...req, ...build(index++) }),
            onResponse: (status, body, _context, headers) => {
              last = process.hrtime.bigint();
              if (status === 200) answers.push({ headers, body });
            },
          },
        ],
      },
      (err, result) => {
        if (err) return reject(err);
        const seconds = Number(last - started) / 1e9;
        resolve({ perSecond: result.requests.total / seconds, non2xx: result.non2xx, answers });
      },
    );
  });
}

async function main(args = parseArgs()) {
  if (!args.baseline) throw new Error('--baseline DIR: a checkout with a built gateway to compare with');
  const rounds = Number(args.rounds ?? 4);
  const amount = Number(args.requests ?? 8000);
  const connections = Number(args.connections ?? 40);
  const log = (text) => !args.json && process.stderr.write(`${text}\n`);

  const env = await stackFor({});
  const baseline = await startBaseline(String(args.baseline), env.stack);
  const gateways = [
    { name: 'this', url: env.url, pid: env.gatewayPid },
    { name: 'baseline', url: baseline.url, pid: baseline.child.pid },
  ];
  /** @type {Record<string, { join: number[], vote: number[], joinCpuUs: number[], voteCpuUs: number[] }>} */
  const figures = Object.fromEntries(
    gateways.map((g) => [g.name, { join: [], vote: [], joinCpuUs: [], voteCpuUs: [] }]),
  );
  try {
    const host = await subscribedHost(env.url);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? gateways : [...gateways].reverse();
      for (const gateway of order) {
        // Rooms of five guests each, voting on their first batch; opened outside the measured phases, through
        // the gateway about to be measured, so each carries the garbage of its own setup and no other's.
        const rooms = await pool(Array.from({ length: Math.ceil(amount / 5) }), 20, async () => {
          const created = await (
            await call(
              gateway.url,
              'POST',
              '/api/v1/waiting-room/create',
              { userName: 'Host' },
              { Cookie: host },
            )
          ).json();
          const started = await (
            await call(gateway.url, 'POST', '/api/v1/waiting-room/start', NYC, {
              Authorization: `Bearer ${created.token}`,
            })
          ).json();
          return {
            code: created.waitingRoom.waitingRoomId,
            batch: started.places.slice(0, 5).map((p) => p.id),
          };
        });
        const batchOf = new Map(rooms.map((room) => [room.code, room.batch]));
        let cpu = cpuSeconds(gateway.pid);
        const joins = await closedLoop(gateway.url, amount, connections, (i) => ({
          method: 'PATCH',
          path: '/api/v1/waiting-room/join',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ waitingRoomId: rooms[i % rooms.length].code, userName: 'Guest' }),
        }));
        const joinCpu = cpuSeconds(gateway.pid) - cpu;
        const members = joins.answers.map(({ headers, body }) => joinedMember(headers, body));
        cpu = cpuSeconds(gateway.pid);
        const votes = await closedLoop(gateway.url, members.length, connections, (i) => {
          const member = members[i % members.length];
          return voteRequest(member, batchOf.get(member.code));
        });
        const voteCpu = cpuSeconds(gateway.pid) - cpu;
        const f = figures[gateway.name];
        f.join.push(joins.perSecond);
        f.vote.push(votes.perSecond);
        f.joinCpuUs.push((joinCpu / amount) * 1e6);
        f.voteCpuUs.push((voteCpu / Math.max(1, members.length)) * 1e6);
        log(
          `round ${round + 1} ${gateway.name}: join ${joins.perSecond.toFixed(0)}/s (${joins.non2xx} non-2xx), ` +
            `vote ${votes.perSecond.toFixed(0)}/s (${votes.non2xx} non-2xx), CPU ` +
            `${f.joinCpuUs.at(-1).toFixed(0)} / ${f.voteCpuUs.at(-1).toFixed(0)} µs per join / vote`,
        );
      }
    }
    const summary = Object.fromEntries(
      Object.entries(figures).map(([name, f]) => [
        name,
        {
          joinPerSecond: Math.round(median(f.join)),
          votePerSecond: Math.round(median(f.vote)),
          joinCpuUs: Math.round(median(f.joinCpuUs)),
          voteCpuUs: Math.round(median(f.voteCpuUs)),
        },
      ]),
    );
    const ratio = (key) => Math.round((summary.this[key] / summary.baseline[key]) * 100) / 100;
    const result = {
      rounds,
      requests: amount,
      connections,
      medians: summary,
      thisOverBaseline: {
        joinThroughput: ratio('joinPerSecond'),
        voteThroughput: ratio('votePerSecond'),
        joinCpu: ratio('joinCpuUs'),
        voteCpu: ratio('voteCpuUs'),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    baseline.child.kill('SIGTERM');
    await env.stop();
  }
}

runMain(module, main);
module.exports = { main };
