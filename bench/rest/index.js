// @ts-check
/**
 * `npm run bench:rest -- [--connections 40] [--requests 16000] [--rounds 4] [--seconds 10] [--room-size 5]
 *                        [--rate 3000] [--rate-seconds 5] [--json]`
 *
 * 1. Throughput: `--requests` joins, then their votes, with `--connections` in flight, through the gateway
 *    (autocannon) and straight to rooms over the transport (no gateway), in `--rounds` rounds that
 *    alternate the two (gateway first, then second, …), so the gateway's own cost shows as a ratio of runs
 *    seconds apart; the target's figure is the median of the rounds' ratios. Then verify-token, each way.
 * 0. The hop: `--hop-requests` joins and votes one at a time (an idle machine) through the gateway and
 *    straight to rooms, so the gateway's own latency is a p50 difference without queueing in it.
 * 2. At a rate: join and vote offered at `--rate` requests/s for `--rate-seconds` through the gateway by
 *    an open-loop generator (lib/open-loop.js), latency measured from when each request was due (0 skips).
 * Every phase also reports the CPU each part of the machine spent per request (gateway, services,
 * PostgreSQL, Redis, and this process with its load generator), and each throughput round where a call's
 * time went on average (from the gateway's and rooms' metrics): as the client saw it, inside the gateway,
 * waiting for rooms, in rooms' handler, and how many calls shared each of rooms' statements. Joins go to
 * fresh rooms of `--room-size` guests each (plus the host), so every phase sees rooms of the same size.
 */
'use strict';
const http = require('node:http');
const autocannon = require('autocannon');
const { AUTH, ROOMS } = require('../../libs/contracts/dist');
const { openLoop } = require('../lib/open-loop');
const {
  createServiceClient,
  loadConfig,
  PlatformConfig,
  callService,
  tokenKeys,
} = require('../../libs/platform/dist');
const {
  call,
  cpuPerRequest,
  cpuSnapshot,
  joinedMember,
  parseArgs,
  percentiles,
  pool,
  scrapeSums,
  stackFor,
  subscribedHost,
  voteRequest,
} = require('../lib/harness');
const { freePort } = require('@forkvote/testing/src/stack');

const NYC = { latitude: 40.7484, longitude: -73.9967, radiusInMeters: 8046.7, maxResultCount: 20 };

/**
 * @typedef {{ code: string, batch: string[] }} BenchRoom
 * @typedef {{ code: string, userId: string, roomId?: string, cookie?: string }} BenchMember
 * @typedef {{ call: string, requests: number, seconds: number, requestsPerSecond: number, meanMs?: number,
 *   p50Ms: number, p99Ms: number, non2xx: number, errors: number }} Row
 */

/** The gateway's and rooms' histogram sums and counts, for `timeSplit`. */
async function scrapeBoth(ports) {
  const [gateway, rooms] = await Promise.all([scrapeSums(ports.gateway), scrapeSums(ports.rooms)]);
  return { gateway, rooms };
}

/**
 * Where a round's `join` or `vote` calls spent their time on average, in ms, between two scrapes: as the
 * client saw it (the row's mean), in the gateway from its first middleware to the answer's end (HTTP), in
 * the gateway's call to rooms from sending to the answer (call), in rooms' handler from reading the request
 * to its reply (handler), and the calls per batched statement in rooms (batch). The rest of the client's
 * time is the network and both event loops before and after; the call minus the handler is the transport.
 */
function timeSplit(name, side, row, before, after) {
  /** The mean of a histogram's series whose labels hold every part, between the two scrapes. */
  const mean = (from, metric, parts, scale = 1000) => {
    let sum = 0;
    let count = 0;
    for (const [key, value] of after[from]) {
      if (!key.startsWith(`${metric}_`) || !parts.every((part) => key.includes(part))) continue;
      const change = value - (before[from].get(key) ?? 0);
      if (key.startsWith(`${metric}_sum`)) sum += change;
      else count += change;
    }
    return count > 0 ? Math.round((sum / count) * scale * 100) / 100 : null;
  };
  const pattern = `pattern="rooms.${name}"`;
  const viaGateway = side === 'gateway';
  return {
    call: name,
    side,
    clientMs: row.meanMs ?? null,
    gatewayHttpMs: viaGateway
      ? mean('gateway', 'forkvote_http_request_duration_seconds', [`/waiting-room/${name}"`, 'status="200"'])
      : null,
    gatewayCallMs: viaGateway
      ? mean('gateway', 'forkvote_rpc_client_duration_seconds', [pattern, 'outcome="ok"'])
      : null,
    roomsHandlerMs: mean('rooms', 'forkvote_rpc_server_duration_seconds', [pattern, 'outcome="ok"']),
    batch: mean('rooms', 'forkvote_rooms_batch_size', [`statement="${name}"`], 1),
  };
}

/**
 * @param {{ started: bigint, last: bigint }} clock when the run started and its last answer came: autocannon's
 *   own duration is counted in whole sampling seconds, too coarse for a run of a few seconds.
 * @returns {Row}
 */
function summarize(label, result, clock) {
  const seconds = clock ? Number(clock.last - clock.started) / 1e9 : result.duration;
  return {
    call: label,
    requests: result.requests.total,
    seconds: Math.round(seconds * 1000) / 1000,
    requestsPerSecond: Math.round(result.requests.total / seconds),
    meanMs: result.latency.mean,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Runs autocannon; `clock` records when it started and when the last answer arrived. */
function run(options) {
  const clock = { started: process.hrtime.bigint(), last: process.hrtime.bigint() };
  const onResponse = (requests) =>
    requests.map((request) => ({
      ...request,
      onResponse: (...response) => {
        clock.last = process.hrtime.bigint();
        request.onResponse?.(...response);
      },
    }));
  return new Promise((resolve, reject) =>
    autocannon({ ...options, requests: onResponse(options.requests ?? [{}]) }, (err, result) =>
      err ? reject(err) : resolve({ result, clock }),
    ),
  );
}

/** One request at a time over one kept-alive connection. */
function keptAliveClient(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (method, path, body, headers = {}) =>
    new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = http.request(
        `${url}${path}`,
        {
          method,
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...headers,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve({ body: JSON.parse(text), headers: res.headers })
              : reject(new Error(`${method} ${path} answered ${res.statusCode}: ${text}`)),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
}

/** Makes `count` calls with `inFlight` at a time; their latencies in ms and the seconds it all took. */
async function timedCalls(count, inFlight, send) {
  const latencies = [];
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const index = next++;
        const t = process.hrtime.bigint();
        await send(index);
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  return { latencies, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** `count` calls one after another; their latency percentiles in ms. */
async function oneAtATime(count, send) {
  return percentiles((await timedCalls(count, 1, send)).latencies);
}

/**
 * The same load straight over the transport: `count` calls, `connections` in flight.
 * @returns {Promise<Row>}
 */
async function bare(label, client, count, connections, payload, onAnswer = (_answer, _index) => {}) {
  let errors = 0;
  const { latencies, seconds } = await timedCalls(count, connections, (index) => {
    const [pattern, data] = payload(index);
    return callService(client, pattern, data).then(
      (answer) => onAnswer(answer, index),
      () => (errors += 1),
    );
  });
  const p = percentiles(latencies);
  return {
    call: label,
    requests: count - errors,
    seconds: Math.round(seconds * 1000) / 1000,
    requestsPerSecond: Math.round(count / seconds),
    meanMs: Math.round((latencies.reduce((total, ms) => total + ms, 0) / latencies.length) * 100) / 100,
    p50Ms: p.p50,
    p99Ms: p.p99,
    non2xx: 0,
    errors,
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return Math.round(value * 100) / 100;
}

/**
 * One call's runs on one side (through the gateway, or straight to the service), added up: its row counts
 * every run's requests over all their seconds, with their mean latency and the median of the runs' p50 and
 * p99, and its CPU is what every process spent during the runs, per request.
 */
function roundsOf(call, children) {
  /** @type {Row[]} */
  const runs = [];
  /** @type {Map<string, { group: string, seconds: number }>} CPU seconds by process group */
  const spent = new Map();
  const requests = () => runs.reduce((total, row) => total + row.requests, 0);
  return {
    /** Runs one round of the call and adds it in; answers that round's row. */
    async run(/** @type {() => Promise<Row>} */ phase) {
      const before = cpuSnapshot(children);
      const row = await phase();
      for (const [pid, { group, seconds }] of cpuSnapshot(children)) {
        const used = seconds - (before.get(pid)?.seconds ?? 0);
        spent.set(group, { group, seconds: (spent.get(group)?.seconds ?? 0) + used });
      }
      runs.push(row);
      return row;
    },
    /** @returns {Row} */
    total() {
      const sum = (pick) => runs.reduce((total, row) => total + pick(row), 0);
      const seconds = sum((row) => row.seconds);
      return {
        call,
        requests: requests(),
        seconds: Math.round(seconds * 1000) / 1000,
        requestsPerSecond: Math.round(requests() / seconds),
        meanMs: Math.round((sum((row) => (row.meanMs ?? 0) * row.requests) / requests()) * 100) / 100,
        p50Ms: median(runs.map((row) => row.p50Ms)),
        p99Ms: median(runs.map((row) => row.p99Ms)),
        non2xx: sum((row) => row.non2xx),
        errors: sum((row) => row.errors),
      };
    },
    cpu() {
      return { call, ...cpuPerRequest(new Map(), spent, Math.max(1, requests())) };
    },
  };
}

async function main(args = parseArgs()) {
  const connections = Number(args.connections ?? 40);
  const amount = Number(args.requests ?? 16_000);
  const roundCount = Math.max(1, Number(args.rounds ?? 4));
  const seconds = Number(args.seconds ?? 10);
  const roomSize = Number(args['room-size'] ?? 5);
  const rate = Number(args.rate ?? 3000);
  const rateSeconds = Number(args['rate-seconds'] ?? 5);
  const hopRequests = Number(args['hop-requests'] ?? 500);
  const log = (text) => !args.json && process.stderr.write(`${text}\n`);
  // Each process's metrics on a port of its own, for where a call's time went (none for a stack at --url).
  const metricsPorts = args.url ? null : { gateway: await freePort(), rooms: await freePort() };
  const env = await stackFor(
    args,
    {},
    undefined,
    metricsPorts && {
      gateway: { METRICS_PORT: String(metricsPorts.gateway) },
      rooms: { HEALTH_PORT: String(metricsPorts.rooms) },
    },
  );
  const { url } = env;
  const children = env.stack?.children ?? new Map();
  const config = loadConfig(PlatformConfig, {
    ...process.env,
    REDIS_PREFIX: env.stack?.redisPrefix ?? process.env.REDIS_PREFIX,
  });
  const client = createServiceClient(config);
  await client.connect();
  /** @type {Row[]} */
  const rows = [];
  const cpu = [];
  /** Runs one phase and records its row and the CPU it cost per answered request. */
  const measure = async (/** @type {() => Promise<Row>} */ phase) => {
    const before = cpuSnapshot(children);
    const row = await phase();
    cpu.push({ call: row.call, ...cpuPerRequest(before, cpuSnapshot(children), Math.max(1, row.requests)) });
    rows.push(row);
    return row;
  };

  try {
    const hostCookie = await subscribedHost(url);
    const sessionClaims = JSON.parse(
      Buffer.from(hostCookie.split('=')[1].split('.')[1], 'base64url').toString(),
    );
    /** Rooms in voting state, enough for `joins` guests at `roomSize` each. @returns {Promise<BenchRoom[]>} */
    const openRooms = (joins) =>
      pool(Array.from({ length: Math.max(1, Math.ceil(joins / roomSize)) }), 20, async () => {
        const created = await (
          await call(url, 'POST', '/api/v1/waiting-room/create', { userName: 'Host' }, { Cookie: hostCookie })
        ).json();
        const started = await (
          await call(url, 'POST', '/api/v1/waiting-room/start', NYC, {
            Authorization: `Bearer ${created.token}`,
          })
        ).json();
        return {
          code: created.waitingRoom.waitingRoomId,
          batch: started.places.slice(0, 5).map((p) => p.id),
        };
      });
    const batchOf = new Map();
    const remember = (rooms) => rooms.forEach((room) => batchOf.set(room.code, room.batch));
    const votesOf = (code) => batchOf.get(code).map((placeId) => ({ placeId, voteType: 'up' }));

    const joinRequest = (rooms) => (index) => ({
      method: 'PATCH',
      path: '/api/v1/waiting-room/join',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ waitingRoomId: rooms[index % rooms.length].code, userName: 'Guest' }),
    });
    const voteRequestOf = (members) => (index) => {
      const member = members[index % members.length];
      return voteRequest(member, batchOf.get(member.code));
    };

    /** `count` requests made by `build(index)` with autocannon, `connections` in flight. */
    const closedLoop = async (label, count, build, onAnswer = (_headers, _body) => {}) => {
      let index = 0;
      const { result, clock } = await run({
        url,
        amount: count,
        connections,
        requests: [
          {
            setupRequest: (req) => ({ ...req, ...build(index++) }),
            onResponse: (status, body, _context, headers) => status === 200 && onAnswer(headers, body),
          },
        ],
      });
      return summarize(label, result, clock);
    };

    /** `count` requests made by `build(index)`, offered at `rate` per second whatever the answers. */
    const atRateOf = async (label, count, build, onAnswer = (_headers, _body) => {}) => {
      const result = await openLoop({
        url,
        rate,
        count,
        connections: Math.max(connections, 128),
        request: build,
        onResponse: (_index, status, headers, body) => status === 200 && onAnswer(headers, body),
      });
      return {
        call: label,
        requests: result.requests,
        requestsPerSecond: result.requestsPerSecond,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors,
      };
    };

    const hop = [];
    if (hopRequests > 0) {
      log(`the hop: ${hopRequests} joins and votes one at a time, through the gateway and straight`);
      const send = keptAliveClient(url);
      const viaGateway = await openRooms(hopRequests);
      const straight = await openRooms(hopRequests);
      remember([...viaGateway, ...straight]);
      const gatewayMembers = [];
      const serviceMembers = [];
      const joinGateway = await oneAtATime(hopRequests, async (i) => {
        const { body, headers } = await send('PATCH', '/api/v1/waiting-room/join', {
          waitingRoomId: viaGateway[i % viaGateway.length].code,
          userName: 'Guest',
        });
        const cookie = [].concat(headers['set-cookie'] ?? []).find((c) => c.startsWith('fv_room='));
        gatewayMembers.push({
          code: body.waitingRoom.waitingRoomId,
          userId: body.userId,
          cookie: cookie.split(';')[0],
        });
      });
      const joinService = await oneAtATime(hopRequests, async (i) => {
        const answer = await callService(client, ROOMS.join, {
          body: { waitingRoomId: straight[i % straight.length].code, userName: 'Guest' },
        });
        const claims = tokenKeys(config).verify('room-member', answer.memberToken);
        serviceMembers.push({ roomId: claims.roomId, code: claims.code, userId: claims.userId });
      });
      const voteGateway = await oneAtATime(hopRequests, (i) => {
        const member = gatewayMembers[i];
        return send(
          'PATCH',
          '/api/v1/waiting-room/vote',
          { waitingRoomId: member.code, userId: member.userId, votes: votesOf(member.code) },
          { cookie: member.cookie },
        );
      });
      const voteService = await oneAtATime(hopRequests, (i) => {
        const member = serviceMembers[i];
        const body = { waitingRoomId: member.code, userId: member.userId, votes: votesOf(member.code) };
        return callService(client, ROOMS.vote, { roomId: member.roomId, userId: member.userId, body });
      });
      const verifyGateway = await oneAtATime(hopRequests, () =>
        send('POST', '/api/v1/auth/verify-token', {}, { cookie: hostCookie }),
      );
      const verifyService = await oneAtATime(hopRequests, () =>
        callService(client, AUTH.verify, { userId: sessionClaims.sub }),
      );
      for (const [name, gateway, service] of [
        ['join', joinGateway, joinService],
        ['vote', voteGateway, voteService],
        ['verify-token', verifyGateway, verifyService],
      ]) {
        hop.push({
          call: name,
          gatewayP50Ms: gateway.p50,
          serviceP50Ms: service.p50,
          gatewayAddsP50Ms: Math.round((gateway.p50 - service.p50) * 100) / 100,
          gatewayP99Ms: gateway.p99,
          serviceP99Ms: service.p99,
        });
      }
    }

    // --requests 0 skips the throughput phases (e.g. to measure only at a rate).
    /** @type {{ call: string, round: number, gateway: number, service: number, ratio: number }[]} */
    const rounds = [];
    /** @type {object[]} where each round's time went, each side (see timeSplit) */
    const split = [];
    if (amount > 0) {
      const perRound = Math.ceil(amount / roundCount);
      log(
        `throughput: ${perRound * roundCount} joins, then their votes, through the gateway and straight to ` +
          `rooms, in ${roundCount} alternating rounds of ${perRound}; ${connections} connections`,
      );
      // Every round's rooms first, so that nothing runs between the rounds; each round's for both sides one
      // after the other, so neither side's rooms are older.
      const gatewayRooms = [];
      const bareRooms = [];
      for (let r = 0; r < roundCount; r++) {
        gatewayRooms.push(await openRooms(perRound));
        bareRooms.push(await openRooms(perRound));
      }
      [...gatewayRooms, ...bareRooms].forEach(remember);
      /** @type {BenchMember[][]} */
      const members = gatewayRooms.map(() => []);
      /** @type {BenchMember[][]} */
      const bareMembers = bareRooms.map(() => []);
      const joinGateway = roundsOf('join (gateway)', children);
      const voteGateway = roundsOf('vote (gateway)', children);
      const joinBare = roundsOf('join (service only)', children);
      const voteBare = roundsOf('vote (service only)', children);
      /**
       * One round each way, the gateway first in rounds 1, 3, … and second in 2, 4, …: the machine's speed
       * drifts over minutes, and a ratio of two runs seconds apart leaves the drift out.
       */
      const alternate = async (call, round, viaGateway, straight) => {
        /** Runs one side, with where its time went when the processes' metrics can be read. */
        const timed = async (side, phase) => {
          const before = metricsPorts && (await scrapeBoth(metricsPorts));
          const row = await phase();
          if (before)
            split.push({
              round: round + 1,
              ...timeSplit(call, side, row, before, await scrapeBoth(metricsPorts)),
            });
          return row;
        };
        let gateway, service;
        if (round % 2 === 0) {
          gateway = await timed('gateway', viaGateway);
          service = await timed('service', straight);
        } else {
          service = await timed('service', straight);
          gateway = await timed('gateway', viaGateway);
        }
        rounds.push({
          call,
          round: round + 1,
          gateway: gateway.requestsPerSecond,
          service: service.requestsPerSecond,
          ratio: Math.round((gateway.requestsPerSecond / service.requestsPerSecond) * 100) / 100,
        });
      };
      for (let r = 0; r < roundCount; r++) {
        await alternate(
          'join',
          r,
          () =>
            joinGateway.run(() =>
              closedLoop('join (gateway)', perRound, joinRequest(gatewayRooms[r]), (headers, body) =>
                members[r].push(joinedMember(headers, body)),
              ),
            ),
          () =>
            joinBare.run(() =>
              bare(
                'join (service only)',
                client,
                perRound,
                connections,
                (i) => [
                  ROOMS.join,
                  { body: { waitingRoomId: bareRooms[r][i % bareRooms[r].length].code, userName: 'Guest' } },
                ],
                (answer) => {
                  // The member token carries the room id, which the gateway would take from the room cookie.
                  const claims = tokenKeys(config).verify('room-member', answer.memberToken);
                  bareMembers[r].push({ roomId: claims.roomId, code: claims.code, userId: claims.userId });
                },
              ),
            ),
        );
      }
      for (let r = 0; r < roundCount; r++) {
        await alternate(
          'vote',
          r,
          () =>
            voteGateway.run(() => closedLoop('vote (gateway)', members[r].length, voteRequestOf(members[r]))),
          () =>
            voteBare.run(() =>
              bare('vote (service only)', client, bareMembers[r].length, connections, (i) => {
                const member = bareMembers[r][i];
                const body = {
                  waitingRoomId: member.code,
                  userId: member.userId,
                  votes: votesOf(member.code),
                };
                return [ROOMS.vote, { roomId: member.roomId, userId: member.userId, body }];
              }),
            ),
        );
      }
      log(`verify-token: ${seconds} s through the gateway, then as many straight to auth`);
      const verify = roundsOf('verify-token (gateway)', children);
      const verifyBare = roundsOf('verify-token (service only)', children);
      const verified = await verify.run(async () => {
        const { result, clock } = await run({
          url: `${url}/api/v1/auth/verify-token`,
          connections,
          duration: seconds,
          method: 'POST',
          headers: { cookie: hostCookie },
        });
        return summarize('verify-token (gateway)', result, clock);
      });
      await verifyBare.run(() =>
        bare('verify-token (service only)', client, Math.max(2000, verified.requests), connections, () => [
          AUTH.verify,
          { userId: sessionClaims.sub },
        ]),
      );
      for (const phase of [joinGateway, voteGateway, verify, joinBare, voteBare, verifyBare]) {
        rows.push(phase.total());
        cpu.push(phase.cpu());
      }
    }

    const atRate = [];
    if (rate > 0) {
      const count = rate * rateSeconds;
      log(`at ${rate} requests/s for ${rateSeconds} s: ${count} joins, then their ballots`);
      const rateRooms = await openRooms(count);
      remember(rateRooms);
      /** @type {BenchMember[]} */
      const rateMembers = [];
      atRate.push(
        await measure(() =>
          atRateOf(`join at ${rate}/s (gateway)`, count, joinRequest(rateRooms), (headers, body) =>
            rateMembers.push(joinedMember(headers, body)),
          ),
        ),
      );
      atRate.push(
        await measure(() =>
          atRateOf(`vote at ${rate}/s (gateway)`, rateMembers.length, voteRequestOf(rateMembers)),
        ),
      );
    }

    // How many of the machine's cores were busy in each phase: whether it was bound by CPU or by latency.
    for (const entry of cpu) {
      const row = rows.find((r) => r.call === entry.call);
      if (row && typeof entry.machine === 'number')
        entry.coresBusy = Math.round(((entry.machine * row.requestsPerSecond) / 1000) * 100) / 100;
    }
    const overhead = ['join', 'vote', 'verify-token'].flatMap((name) => {
      const gateway = rows.find((r) => r.call === `${name} (gateway)`);
      const service = rows.find((r) => r.call === `${name} (service only)`);
      if (!gateway || !service) return [];
      const ratios = rounds.filter((r) => r.call === name).map((r) => r.ratio);
      return {
        call: name,
        gatewayAddsP50Ms: Math.round((gateway.p50Ms - service.p50Ms) * 100) / 100,
        // Of neighbouring rounds where there are rounds (the target's figure), else of the two runs.
        throughputRatio:
          ratios.length > 0
            ? median(ratios)
            : Math.round((gateway.requestsPerSecond / service.requestsPerSecond) * 100) / 100,
      };
    });
    const result = {
      connections,
      requests: amount,
      rounds,
      split,
      roomSize,
      verifySeconds: seconds,
      rate,
      rows,
      overhead,
      hop,
      cpuMsPerRequest: cpu,
      atRate,
    };
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else {
      console.table(rows);
      if (rounds.length > 0) {
        console.log('Throughput in each round, through the gateway and straight to the service:');
        console.table(rounds);
      }
      if (split.length > 0) {
        console.log('Where the time went in each round, mean ms (batch: calls per statement in rooms):');
        console.table(split);
      }
      console.table(overhead);
      if (hop.length > 0) {
        console.log('The gateway hop, one request at a time:');
        console.table(hop);
      }
      console.log('CPU milliseconds per request, by process:');
      console.table(cpu);
    }
    return result;
  } finally {
    await client.close();
    await env.stop();
  }
}

if (require.main === module) {
  main().then(
    (result) => process.exit(result.rows.every((r) => r.errors === 0 && r.non2xx === 0) ? 0 : 1),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

module.exports = { main };
