// @ts-check
/**
 * `npm run bench:storm -- [--rooms 2000] [--room-size 5] [--window 10] [--workers 4] [--json]`
 *
 * A vote storm: rooms of `room-size` members (the host and guests), every member's event stream open, and
 * every member's ballot sent at its own moment of a `window`-second window. Each ballot makes a USER_VOTED
 * for every member of its room, and a room's last ballot a BALLOTS_SUBMITTED. Prints ballots/s, the
 * deliveries, the time from a ballot's sending to each member's receipt (p50, p99) and what was lost.
 *
 * The run holds two storms over the same rooms, one target's streams open in each, so each target carries
 * only its own 10,000 streams (as the issue's 10,000 clients) and neither is measured under the other's
 * deliveries. First the floor (`floor.js`: a bare node:http SSE server fed by the same Redis channels) on the
 * first batch; then, the host having asked for the next batch, the gateway on the second. The gateway's memory
 * per connection, connect rate and delivery times are printed as ratios of the floor's in the same run. Both
 * storms' ballots go through the gateway's vote call.
 */
'use strict';
const { fork } = require('node:child_process');
const path = require('node:path');
const {
  ask,
  call,
  collectGarbage,
  createRooms,
  cookieOf,
  cpuPerRequest,
  inspectorUrlIn,
  cpuSnapshot,
  mib,
  parseArgs,
  percentiles,
  pool,
  rssBytes,
  runMain,
  stackFor,
  subscribedHost,
} = require('../lib/harness');
const { START_SEARCH } = require('@forkvote/testing/src/fixtures');

const ratio = (a, b) => Math.round((a / b) * 100) / 100;

async function main(args = parseArgs()) {
  const roomCount = Number(args.rooms ?? 2000);
  const roomSize = Number(args['room-size'] ?? 5);
  const windowMs = Number(args.window ?? 10) * 1000;
  const workerCount = Number(args.workers ?? 4);
  const log = (text) => !args.json && process.stderr.write(`${text}\n`);
  // The gateway and the floor run with the inspector open, so memory is read after a full collection.
  let gatewayInspector;
  const env = await stackFor(args, { INSPECT: 'gateway' }, (line) => {
    if (line.startsWith('gateway ')) gatewayInspector ??= inspectorUrlIn(line);
  });
  const { url, gatewayPid, stack } = env;
  const workers = [];
  let floor;
  try {
    log(`stack at ${url}; creating and starting ${roomCount} rooms of ${roomSize}`);
    const hostCookie = await subscribedHost(url);
    const rooms = await createRooms(url, hostCookie, roomCount);
    const members = [];
    await pool(rooms, 50, async (room) => {
      members.push({ code: room.code, roomId: room.roomId, ...room.host });
      for (let i = 1; i < roomSize; i++) {
        const joined = await call(url, 'PATCH', '/api/v1/waiting-room/join', {
          waitingRoomId: room.code,
          userName: `g${i}`,
        });
        members.push({
          code: room.code,
          roomId: room.roomId,
          userId: (await joined.json()).userId,
          cookie: cookieOf(joined, 'fv_room'),
        });
      }
    });
    /** Per room code, the place ids of each batch (ballots say yes to all five). */
    const batchesByCode = {};
    await pool(rooms, 20, async (room) => {
      const started = await call(url, 'POST', '/api/v1/waiting-room/start', START_SEARCH, {
        Authorization: `Bearer ${room.token}`,
      });
      const ids = (await started.json()).places.map((p) => p.id);
      batchesByCode[room.code] = [ids.slice(0, 5), ids.slice(5, 10)];
    });
    const placesOfBatch = (batch) =>
      Object.fromEntries(Object.entries(batchesByCode).map(([code, batches]) => [code, batches[batch]]));

    floor = fork(
      path.join(__dirname, 'floor.js'),
      [
        process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        stack?.redisPrefix ?? 'fv',
        process.env.REDIS_CLUSTER ?? '',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: ['--inspect=127.0.0.1:0'] },
    );
    let floorInspector;
    floor.stderr.on('data', (chunk) => (floorInspector ??= inspectorUrlIn(String(chunk))));
    const floorPort = await new Promise((resolve) => floor.once('message', (m) => resolve(m.port)));
    for (let w = 0; w < workerCount; w++) {
      workers.push(
        fork(path.join(__dirname, 'worker.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }),
      );
    }
    const shares = workers.map((_, w) => members.filter((_, i) => i % workerCount === w));
    const processes = new Map([
      ...(stack?.children ?? []),
      ['floor', floor],
      ...workers.map((worker, w) => [`worker ${w}`, worker]),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    /** Opens every member's stream to one target; answers the time taken and the memory it added. */
    const connectAll = async (target, targetUrl, pid, inspector) => {
      // Both readings after a full collection, so neither counts garbage (of setting up, or of connecting).
      const held = async () => {
        await collectGarbage(inspector);
        await new Promise((resolve) => setTimeout(resolve, 500));
        return rssBytes(pid);
      };
      const rssBefore = await held();
      const started = Date.now();
      const answers = await Promise.all(
        workers.map((worker, w) =>
          ask(worker, { type: 'connect', target, url: targetUrl, members: shares[w] }, 'connected'),
        ),
      );
      const ms = Date.now() - started;
      const streams = members.length - answers.reduce((sum, a) => sum + a.failed, 0);
      const kib = ((await held()) - rssBefore) / Math.max(streams, 1) / 1024;
      return {
        held: streams,
        failed: members.length - streams,
        ms,
        perSecond: Math.round((streams / ms) * 1000),
        kibPerConnection: Math.round(kib * 10) / 10,
      };
    };

    /**
     * Every member's ballot on `batch`, through the gateway, with `target`'s streams open; answers the
     * ballots, the deliveries to those streams and where the machine's CPU went.
     */
    const stormOn = async (target, batch) => {
      log(`the storm on the ${target}'s streams: ${members.length} ballots in ${windowMs / 1000} s`);
      const cpuBefore = cpuSnapshot(processes);
      const startAt = Date.now() + 500;
      const timed = shares.map((share) =>
        share.map((member) => ({ ...member, at: 500 + Math.floor(Math.random() * windowMs) })),
      );
      const placesByCode = placesOfBatch(batch);
      const sentAnswers = await Promise.all(
        workers.map((worker, w) =>
          ask(worker, { type: 'storm', url, members: timed[w], startAt, placesByCode }, 'sent'),
        ),
      );
      const stormMs = Date.now() - startAt;
      const cpuAfter = cpuSnapshot(processes);
      const sent = sentAnswers.flatMap((a) => a.sent);
      const ballotsOk = sent.filter((s) => s[3]).length;
      const sentAtOf = new Map(sent.map((s) => [s[0], s[2]]));
      const lastBallotOf = new Map();
      for (const [, code, sentAt] of sent)
        lastBallotOf.set(code, Math.max(lastBallotOf.get(code) ?? 0, sentAt));

      // Deliveries still on their way are given a few seconds.
      const expectedVoted = ballotsOk * roomSize;
      const expectedSubmitted = roomCount * roomSize;
      let receipts = [];
      for (let waited = 0; waited < 15_000; waited += 250) {
        const reports = await Promise.all(workers.map((worker) => ask(worker, { type: 'report' }, 'report')));
        receipts = reports.map((r) => r.receipts[target]);
        const count = receipts.reduce((sum, r) => sum + r.voted.length + r.submitted.length, 0);
        if (count >= expectedVoted + expectedSubmitted) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const voted = receipts.flatMap((r) => r.voted);
      const submitted = receipts.flatMap((r) => r.submitted);
      const latencies = [
        ...voted.map(([voter, at]) => at - sentAtOf.get(voter)),
        ...submitted.map(([code, at]) => at - lastBallotOf.get(code)),
      ];
      return {
        ballots: {
          sent: sent.length,
          ok: ballotsOk,
          perSecond: Math.round((ballotsOk / stormMs) * 1000),
          // The statuses of ballots not answered 200 (for one with no answer at all, its error's code).
          refused: sent
            .filter((s) => !s[3])
            .reduce((byStatus, s) => ({ ...byStatus, [s[4]]: (byStatus[s[4]] ?? 0) + 1 }), {}),
          // From a ballot's sending to its answer (200 or not): the vote call alone, before any event.
          answeredMs: percentiles(sent.map((s) => s[5])),
        },
        expected: { userVoted: expectedVoted, ballotsSubmitted: expectedSubmitted },
        delivery: {
          userVoted: voted.length,
          ballotsSubmitted: submitted.length,
          lost: expectedVoted + expectedSubmitted - voted.length - submitted.length,
          latencyMs: percentiles(latencies),
        },
        cpuMsPerBallot: cpuPerRequest(cpuBefore, cpuAfter, Math.max(ballotsOk, 1)),
      };
    };

    log(`opening ${members.length} streams to the floor`);
    const floorConnect = await connectAll(
      'floor',
      `http://127.0.0.1:${floorPort}`,
      floor.pid,
      floorInspector,
    );
    const floorStorm = await stormOn('floor', 0);
    await Promise.all(workers.map((worker) => ask(worker, { type: 'drop' }, 'dropped')));
    log("the floor's streams closed; every host asks for the next batch");
    await pool(rooms, 20, async (room) => {
      const moved = await call(
        url,
        'POST',
        '/api/v1/waiting-room/next-batch',
        { waitingRoomId: room.code, nextBatchIndex: 1 },
        { Authorization: `Bearer ${room.token}` },
      );
      if (moved.status !== 200) throw new Error(`next batch answered ${moved.status}`);
    });
    log(`opening ${members.length} streams to the gateway`);
    const gatewayConnect = await connectAll('gateway', url, gatewayPid, gatewayInspector);
    const gatewayStorm = await stormOn('gateway', 1);

    const gateway = gatewayStorm.delivery;
    const floorDelivery = floorStorm.delivery;
    const result = {
      rooms: roomCount,
      members: members.length,
      // The gateway's storm: the target.
      ballots: gatewayStorm.ballots,
      expected: gatewayStorm.expected,
      gateway: { connect: gatewayConnect, delivery: gateway },
      floor: {
        connect: floorConnect,
        delivery: floorDelivery,
        ballots: floorStorm.ballots,
        expected: floorStorm.expected,
      },
      ratios: {
        memoryPerConnection: ratio(gatewayConnect.kibPerConnection, floorConnect.kibPerConnection),
        deliveryP50: ratio(gateway.latencyMs.p50, floorDelivery.latencyMs.p50),
        deliveryP99: ratio(gateway.latencyMs.p99, floorDelivery.latencyMs.p99),
        connectRate: ratio(gatewayConnect.perSecond, floorConnect.perSecond),
      },
      gatewayRssMiB: mib(rssBytes(gatewayPid)),
      cpuMsPerBallot: gatewayStorm.cpuMsPerBallot,
      floorStormCpuMsPerBallot: floorStorm.cpuMsPerBallot,
    };
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else {
      const row = (r, ballots, expected) => ({
        ballots: `${ballots.ok} of ${ballots.sent} (${ballots.perSecond}/s)`,
        'answered p50 / p99': `${ballots.answeredMs.p50} / ${ballots.answeredMs.p99} ms`,
        'streams held': `${r.connect.held} (${r.connect.failed} failed)`,
        'connect all': `${r.connect.ms} ms (${r.connect.perSecond}/s)`,
        'memory per stream': `${r.connect.kibPerConnection} KiB`,
        'USER_VOTED delivered': `${r.delivery.userVoted} of ${expected.userVoted}`,
        'BALLOTS_SUBMITTED delivered': `${r.delivery.ballotsSubmitted} of ${expected.ballotsSubmitted}`,
        lost: r.delivery.lost,
        'ballot sent → received p50 / p99 / max': `${r.delivery.latencyMs.p50} / ${r.delivery.latencyMs.p99} / ${r.delivery.latencyMs.max} ms`,
      });
      const answered = result.ballots.answeredMs;
      console.log(
        `the gateway's storm: ${result.ballots.ok} of ${result.ballots.sent} ballots answered 200, ` +
          `${result.ballots.perSecond}/s; answered after p50 ${answered.p50} / p99 ${answered.p99} / ` +
          `max ${answered.max} ms`,
      );
      for (const [target, ballots] of [
        ['gateway', result.ballots],
        ['floor', result.floor.ballots],
      ]) {
        if (Object.keys(ballots.refused).length > 0) {
          console.log(
            `the ${target}'s storm: ballots not answered 200, by status or error: ${JSON.stringify(ballots.refused)}`,
          );
        }
      }
      console.table({
        gateway: row(result.gateway, result.ballots, result.expected),
        floor: row(result.floor, result.floor.ballots, result.floor.expected),
      });
      console.table({ 'gateway ÷ floor': result.ratios });
      console.log('CPU ms per ballot, by process, in each storm (workers: the load)');
      console.table({
        "gateway's storm": result.cpuMsPerBallot,
        "floor's storm": result.floorStormCpuMsPerBallot,
      });
    }
    return result;
  } finally {
    for (const worker of workers) worker.send({ type: 'close' });
    floor?.kill();
    await env.stop();
  }
}

runMain(module, main);

module.exports = { main };
