// @ts-check
/**
 * `npm run bench:outbox -- [--joins 40] [--replicas 1,2,3] [--gap-ms 25] [--json]`
 *
 * Outbox dwell (a room event's commit to its publish into Redis) with 1, 2 and 3 rooms replicas in one
 * run: one stack, replicas added between rounds, each round `--joins` guests joining one room one after
 * another `--gap-ms` apart (each join is handled by whichever replica reads it first). Dwell is read from
 * the outbox rows themselves (published_at − created_at, both PostgreSQL's clock). Prints p50, p90 and max
 * per replica count and each p90's ratio to the one-replica p90; the target is ≤ 1.5×.
 */
'use strict';
const { Client } = require('pg');
const { call, parseArgs, percentiles, runMain, stackFor, subscribedHost } = require('../lib/harness');
const { freePort } = require('@forkvote/testing/src/stack');

const TARGET_RATIO = 1.5;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitReady(port) {
  for (let i = 0; i < 300; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await sleep(100);
  }
  throw new Error(`the rooms replica on health port ${port} never became ready`);
}

/** p90 over the dwell of the USER_JOINED rows after `afterId`, once every one of them is published. */
async function dwellSince(db, afterId, expected) {
  for (let i = 0; i < 100; i++) {
    const { rows } = await db.query(
      `SELECT EXTRACT(EPOCH FROM published_at - created_at) * 1000 AS ms
         FROM rooms.outbox WHERE id > $1 AND event = 'USER_JOINED'`,
      [afterId],
    );
    if (rows.length >= expected && rows.every((r) => r.ms !== null)) return rows.map((r) => Number(r.ms));
    await sleep(100);
  }
  throw new Error('events were not published within 10 s');
}

async function main(args = parseArgs()) {
  const joins = Number(args.joins ?? 40);
  const gapMs = Number(args['gap-ms'] ?? 25);
  const replicaCounts = String(args.replicas ?? '1,2,3')
    .split(',')
    .map(Number);
  const healthPort = await freePort();
  const env = await stackFor(args, {}, undefined, { rooms: { HEALTH_PORT: String(healthPort) } });
  const { url, stack } = env;
  if (!stack) throw new Error('the outbox bench starts its own stack (no --url)');
  const db = new Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const hostCookie = await subscribedHost(url);
    const rows = [];
    let running = 1;
    for (const replicas of replicaCounts) {
      while (running < replicas) {
        running += 1;
        const port = await freePort();
        stack.startOne('rooms', `rooms-${running}`, { HEALTH_PORT: String(port) });
        await waitReady(port);
      }
      const created = await call(
        url,
        'POST',
        '/api/v1/waiting-room/create',
        { userName: 'Host' },
        {
          Cookie: hostCookie,
        },
      );
      const code = (await created.json()).waitingRoom.waitingRoomId;
      const { rows: last } = await db.query('SELECT COALESCE(max(id), 0) AS id FROM rooms.outbox');
      for (let i = 0; i < joins; i++) {
        const joined = await call(url, 'PATCH', '/api/v1/waiting-room/join', {
          waitingRoomId: code,
          userName: `Guest ${i + 1}`,
        });
        if (joined.status !== 200) throw new Error(`join answered ${joined.status}`);
        await sleep(gapMs);
      }
      const dwell = await dwellSince(db, last[0].id, joins);
      const { p50, max } = percentiles(dwell);
      const sorted = [...dwell].sort((a, b) => a - b);
      const p90 = Math.round(sorted[Math.floor(0.9 * sorted.length)] * 100) / 100;
      rows.push({
        replicas,
        events: dwell.length,
        p50Ms: p50,
        p90Ms: p90,
        maxMs: max,
        over100Ms: dwell.filter((d) => d > 100).length,
      });
    }
    const base = rows.find((r) => r.replicas === 1)?.p90Ms;
    for (const row of rows) row.p90Ratio = base ? Math.round((row.p90Ms / base) * 100) / 100 : NaN;
    const checks = Object.fromEntries(
      rows
        .filter((r) => r.replicas > 1)
        .map((r) => [
          `${r.replicas} replicas: dwell p90 ≤ ${TARGET_RATIO}× one replica's`,
          r.p90Ratio <= TARGET_RATIO,
        ]),
    );
    if (args.json) console.log(JSON.stringify({ joins, gapMs, rows, checks }, null, 2));
    else {
      console.log(`Outbox dwell (commit → published), ${joins} joins ${gapMs} ms apart per round`);
      console.table(rows);
      for (const [check, met] of Object.entries(checks))
        console.log(`${met ? 'met    ' : 'NOT met'}  ${check}`);
    }
    return { joins, rows, checks };
  } finally {
    await db.end();
    await env.stop();
  }
}

module.exports = { main };
runMain(module, main);
