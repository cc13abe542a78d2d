// @ts-check
/**
 * `npm run bench:drain -- [--clients 15000] [--room-size 5] [--workers 4] [--json]`
 *
 * A drain that clients must not feel: two gateways share `clients` event streams (each room's members
 * alternate between them), events keep happening in random rooms (a join every 20 ms, through the second
 * gateway), and the first gateway gets SIGTERM. Its streams end with a `retry:`; each client (an
 * EventSource-like loop in `worker.js`) reconnects to the second gateway with Last-Event-ID. Prints how
 * long until every client was streaming again, and per client the events missed or received twice,
 * counted against each room's log in Redis.
 */
'use strict';
const { fork } = require('node:child_process');
const path = require('node:path');
const {
  ask,
  call,
  cookieOf,
  createRooms,
  parseArgs,
  percentiles,
  pool,
  runMain,
  stackFor,
  subscribedHost,
} = require('../lib/harness');
const { freePort } = require('@forkvote/testing/src/stack');
const { createRedis } = require('@forkvote/platform');
const { roomEventKeys } = require('@forkvote/room-events');

async function main(args = parseArgs()) {
  const clients = Number(args.clients ?? 15000);
  const roomSize = Number(args['room-size'] ?? 5);
  const workerCount = Number(args.workers ?? 4);
  const roomCount = Math.ceil(clients / roomSize);
  const log = (text) => !args.json && process.stderr.write(`${text}\n`);
  const env = await stackFor(args);
  const { url, stack } = env;
  if (!stack) throw new Error('the drain bench starts its own stack (no --url)');
  const workers = [];
  try {
    const secondPort = await freePort();
    const secondUrl = `http://127.0.0.1:${secondPort}`;
    stack.startOne('gateway', 'gateway-2', { PORT: String(secondPort), METRICS_PORT: '0' });
    for (
      let i = 0;
      i < 300 &&
      !(await fetch(`${secondUrl}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      ));
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    log(`stack at ${url} and ${secondUrl}; ${roomCount} rooms of ${roomSize}`);
    const hostCookie = await subscribedHost(url);
    const rooms = await createRooms(url, hostCookie, roomCount);
    const members = [];
    await pool(rooms, 50, async (room) => {
      const people = [room.host];
      for (let i = 1; i < roomSize; i++) {
        const joined = await call(url, 'PATCH', '/api/v1/waiting-room/join', {
          waitingRoomId: room.code,
          userName: `g${i}`,
        });
        people.push({ userId: (await joined.json()).userId, cookie: cookieOf(joined, 'fv_room') });
      }
      for (const person of people) {
        members.push({
          ...person,
          code: room.code,
          roomId: room.roomId,
          // Alternate over all members: half the streams on each gateway, every room on both.
          url: members.length % 2 === 0 ? url : secondUrl,
          fallbackUrl: secondUrl,
        });
      }
    });
    members.splice(clients);

    log(`opening ${members.length} streams over both gateways`);
    for (let w = 0; w < workerCount; w++) {
      workers.push(
        fork(path.join(__dirname, 'worker.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
      );
    }
    const shares = workers.map((_, w) => members.filter((_, i) => i % workerCount === w));
    await Promise.all(
      workers.map((worker, w) => ask(worker, { type: 'connect', members: shares[w] }, 'connected')),
    );
    const onFirst = members.filter((m) => m.url === url).length;

    // Events throughout: a join every 20 ms in a random room, made through the surviving gateway.
    const eventsFrom = `${Date.now()}-0`;
    let generating = true;
    let made = 0;
    const generator = (async () => {
      while (generating) {
        const room = rooms[Math.floor(Math.random() * rooms.length)];
        await call(secondUrl, 'PATCH', '/api/v1/waiting-room/join', {
          waitingRoomId: room.code,
          userName: `late${made}`,
        });
        made += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 1000));

    log(`SIGTERM to the first gateway (${onFirst} streams)`);
    const sigtermAt = Date.now();
    const stopped = stack.stopOne('gateway', 'SIGTERM');
    let back = [];
    for (let waited = 0; waited < 30_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const reports = await Promise.all(workers.map((worker) => ask(worker, { type: 'report' }, 'report')));
      back = reports.flatMap((r) => r.members);
      if (
        back.every((m) => m.url === secondUrl && m.subscribedAt > 0 && m.subscribedAt >= m.droppedAt) &&
        Date.now() - sigtermAt > 2000
      )
        break;
    }
    const exitedMs = await stopped.then(() => Date.now() - sigtermAt);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    generating = false;
    await generator;
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const reports = await Promise.all(workers.map((worker) => ask(worker, { type: 'report' }, 'report')));
    const seen = reports.flatMap((r) => r.members);
    const share = shares.flat();
    // Ground truth: each room's log in Redis, from the moment events began.
    const redis = createRedis(
      {
        url: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        cluster: process.env.REDIS_CLUSTER === 'true',
      },
      { connectionName: 'bench-drain' },
    );
    const logs = new Map();
    for (const room of rooms) {
      const entries = await redis.xrange(roomEventKeys.log(stack.redisPrefix, room.roomId), eventsFrom, '+');
      logs.set(
        room.code,
        entries.map(([id]) => id),
      );
    }
    redis.disconnect();
    let missed = 0;
    let duplicates = 0;
    let clientsMissing = 0;
    let expectedDeliveries = 0;
    seen.forEach((client, i) => {
      const expected = logs.get(share[i].code);
      const got = new Set(client.ids);
      duplicates += client.ids.length - got.size;
      const lost = expected.filter((id) => !got.has(id)).length;
      expectedDeliveries += expected.length;
      missed += lost;
      if (lost) clientsMissing += 1;
    });
    const moved = seen.filter((m) => m.reconnects > 0);
    const backAfter = percentiles(moved.map((m) => m.subscribedAt - sigtermAt));
    const result = {
      clients: members.length,
      onDrainedGateway: onFirst,
      reconnected: moved.length,
      streamingFromSurvivor: seen.filter((m) => m.url === secondUrl).length,
      backAfterSigtermMs: backAfter,
      drainedGatewayExitedMs: exitedMs,
      eventsMade: made,
      deliveriesExpected: expectedDeliveries,
      missed,
      clientsMissingEvents: clientsMissing,
      duplicates,
      refusedReconnects: seen.reduce((sum, m) => sum + m.failures, 0),
    };
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else
      console.table({
        'streams (on the drained gateway)': `${result.clients} (${onFirst})`,
        'reconnected / streaming from the survivor': `${result.reconnected} / ${result.streamingFromSurvivor}`,
        'back after SIGTERM p50 / p99 / max': `${backAfter.p50} / ${backAfter.p99} / ${backAfter.max} ms`,
        'drained gateway exited after': `${exitedMs} ms`,
        'events made during the drain': made,
        'deliveries expected (from the room logs)': expectedDeliveries,
        'missed (clients missing any)': `${missed} (${clientsMissing})`,
        'received twice': duplicates,
        'refused reconnects': result.refusedReconnects,
      });
    return result;
  } finally {
    for (const worker of workers) worker.send({ type: 'close' });
    await env.stop();
  }
}

runMain(module, main);

module.exports = { main };
