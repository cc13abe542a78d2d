// @ts-check
/**
 * `npm run bench:sse -- --clients N --rooms R [--workers W] [--json] [--url URL --gateway-pid PID]`
 * Opens N SSE connections spread over R rooms through one gateway (from worker processes), triggers one
 * event in every room through the real API, and prints connections held, connect time, publish→receive
 * latency, events lost, gateway memory per connection and gateway CPU.
 */
'use strict';
const { fork } = require('node:child_process');
const path = require('node:path');
const {
  call,
  createRooms,
  cookieOf,
  cpuSeconds,
  mib,
  parseArgs,
  percentiles,
  pool,
  rssBytes,
  stackFor,
  subscribedHost,
} = require('../lib/harness');

const PER_WORKER = 5000;

async function main(args = parseArgs()) {
  const clients = Number(args.clients ?? 500);
  const roomCount = Number(args.rooms ?? 50);
  const workerCount = Number(args.workers ?? Math.max(1, Math.ceil(clients / PER_WORKER)));
  const log = (text) => !args.json && process.stderr.write(`${text}\n`);
  const env = await stackFor(args);
  const { url, gatewayPid } = env;
  const workers = [];
  try {
    log(`stack at ${url}; creating ${roomCount} rooms`);
    const hostCookie = await subscribedHost(url);
    const rooms = (await createRooms(url, hostCookie, roomCount)).map((room) => room.code);

    log(`joining ${clients} guests`);
    const joinStarted = Date.now();
    const members = await pool(Array.from({ length: clients }), 100, async (_, i) => {
      const code = rooms[i % roomCount];
      const joined = await call(url, 'PATCH', '/api/v1/waiting-room/join', {
        waitingRoomId: code,
        userName: `g${i}`,
      });
      return { code, userId: (await joined.json()).userId, cookie: cookieOf(joined, 'fv_room') };
    });
    const joinSeconds = (Date.now() - joinStarted) / 1000;

    const rssBefore = gatewayPid ? rssBytes(gatewayPid) : NaN;
    log(`opening ${clients} event streams from ${workerCount} worker processes`);
    const connectStarted = Date.now();
    const connected = await Promise.all(
      Array.from({ length: workerCount }, (_, w) => {
        const worker = fork(path.join(__dirname, 'worker.js'), [], {
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
        workers.push(worker);
        const share = members.filter((_, i) => i % workerCount === w);
        return new Promise((resolve) => {
          worker.once('message', resolve);
          worker.send({ type: 'connect', url, members: share });
        });
      }),
    );
    const connectMs = Date.now() - connectStarted;
    const held = connected.reduce((sum, c) => sum + c.count, 0);
    const failed = connected.reduce((sum, c) => sum + c.failed, 0);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (global.gc) global.gc();
    const rssIdle = gatewayPid ? rssBytes(gatewayPid) : NaN;

    log(`triggering one event in each of ${roomCount} rooms`);
    const cpuBefore = gatewayPid ? cpuSeconds(gatewayPid) : NaN;
    const eventsStarted = Date.now();
    await pool(rooms, 50, (code, i) =>
      call(url, 'PATCH', '/api/v1/waiting-room/join', { waitingRoomId: code, userName: `trigger${i}` }),
    );
    const expected = held;
    let reports = [];
    for (let waited = 0; waited < 30_000; waited += 250) {
      reports = await Promise.all(
        workers.map(
          (worker) =>
            new Promise((resolve) => {
              worker.once('message', resolve);
              worker.send({ type: 'report' });
            }),
        ),
      );
      if (reports.reduce((sum, r) => sum + r.received, 0) >= expected) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const eventSeconds = (Date.now() - eventsStarted) / 1000;
    const cpuUsed = gatewayPid ? cpuSeconds(gatewayPid) - cpuBefore : NaN;
    const received = reports.reduce((sum, r) => sum + r.received, 0);
    const latency = percentiles(reports.flatMap((r) => r.latencies));
    const rssAfter = gatewayPid ? rssBytes(gatewayPid) : NaN;

    const result = {
      clients,
      rooms: roomCount,
      workers: workerCount,
      connectionsHeld: held,
      connectFailures: failed,
      joinSeconds: Math.round(joinSeconds * 10) / 10,
      connectMs,
      eventsExpected: expected,
      eventsReceived: received,
      eventsLost: expected - received,
      latencyMs: latency,
      gatewayRssMiB: {
        beforeConnections: mib(rssBefore),
        idleWithConnections: mib(rssIdle),
        afterEvents: mib(rssAfter),
      },
      gatewayRssPerConnectionKiB: Math.round(((rssIdle - rssBefore) / Math.max(held, 1) / 1024) * 10) / 10,
      gatewayCpuSeconds: Math.round(cpuUsed * 100) / 100,
      gatewayCpuPercentDuringEvents: Math.round((cpuUsed / eventSeconds) * 1000) / 10,
    };
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else {
      console.table({
        'connections held': `${held} of ${clients} (${failed} failed)`,
        'connect time': `${connectMs} ms`,
        'events delivered': `${received} of ${expected} (lost ${expected - received})`,
        'latency p50 / p95 / p99 / max': `${latency.p50} / ${latency.p95} / ${latency.p99} / ${latency.max} ms`,
        'gateway RSS before → idle → after': `${result.gatewayRssMiB.beforeConnections} → ${result.gatewayRssMiB.idleWithConnections} → ${result.gatewayRssMiB.afterEvents} MiB`,
        'gateway RSS per connection': `${result.gatewayRssPerConnectionKiB} KiB`,
        'gateway CPU during events': `${result.gatewayCpuSeconds} s (${result.gatewayCpuPercentDuringEvents}%)`,
      });
    }
    return result;
  } finally {
    for (const worker of workers) worker.send({ type: 'close' });
    await env.stop();
  }
}

if (require.main === module) {
  main().then(
    (result) => process.exit(result.eventsLost === 0 && result.connectionsHeld === result.clients ? 0 : 1),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

module.exports = { main };
