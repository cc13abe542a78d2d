// @ts-check
/**
 * `npm run bench:rest -- [--connections 64] [--requests 10000] [--seconds 10] [--rooms 200] [--json]`
 * autocannon through the gateway against join, vote and verify-token, next to the same calls made
 * straight to the services over the transport (no gateway), so the gateway's own cost shows as a
 * difference and a ratio in one run.
 */
'use strict';
const autocannon = require('autocannon');
const { AUTH, ROOMS } = require('../../libs/contracts/dist');
const {
  createServiceClient,
  loadConfig,
  PlatformConfig,
  callService,
  verifyMemberToken,
} = require('../../libs/platform/dist');
const { call, parseArgs, percentiles, pool, stackFor, subscribedHost } = require('../lib/harness');

const NYC = { latitude: 40.7484, longitude: -73.9967, radiusInMeters: 8046.7, maxResultCount: 20 };

function summarize(label, result) {
  return {
    call: label,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function run(options) {
  return new Promise((resolve, reject) =>
    autocannon(options, (err, result) => (err ? reject(err) : resolve(result))),
  );
}

/** The same load straight over the transport: `count` calls, `connections` in flight. */
async function bare(label, client, count, connections, payload) {
  const latencies = [];
  let errors = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const index = next++;
        const [pattern, data] = payload(index);
        const t = process.hrtime.bigint();
        await callService(client, pattern, data).catch(() => (errors += 1));
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const p = percentiles(latencies);
  return {
    call: label,
    requestsPerSecond: Math.round(count / seconds),
    p50Ms: p.p50,
    p99Ms: p.p99,
    non2xx: 0,
    errors,
  };
}

async function main(args = parseArgs()) {
  const connections = Number(args.connections ?? 64);
  const amount = Number(args.requests ?? 10_000);
  const seconds = Number(args.seconds ?? 10);
  const roomCount = Number(args.rooms ?? 200);
  const log = (text) => !args.json && process.stderr.write(`${text}\n`);
  const env = await stackFor(args);
  const { url } = env;
  const config = loadConfig(PlatformConfig, {
    ...process.env,
    REDIS_PREFIX: env.stack?.redisPrefix ?? process.env.REDIS_PREFIX,
  });
  const client = createServiceClient(config);
  await client.connect();
  try {
    log(`stack at ${url}; ${roomCount} rooms in voting state`);
    const hostCookie = await subscribedHost(url);
    const sessionClaims = JSON.parse(
      Buffer.from(hostCookie.split('=')[1].split('.')[1], 'base64url').toString(),
    );
    const rooms = await pool(Array.from({ length: roomCount }), 20, async () => {
      const created = await (
        await call(url, 'POST', '/api/v1/waiting-room/create', { userName: 'Host' }, { Cookie: hostCookie })
      ).json();
      const started = await (
        await call(url, 'POST', '/api/v1/waiting-room/start', NYC, {
          Authorization: `Bearer ${created.token}`,
        })
      ).json();
      return { code: created.waitingRoom.waitingRoomId, batch: started.places.slice(0, 5).map((p) => p.id) };
    });
    const roomOf = (i) => rooms[i % rooms.length];

    log(`join through the gateway: ${amount} requests, ${connections} connections`);
    const members = [];
    let joinIndex = 0;
    const join = await run({
      url,
      connections,
      amount,
      requests: [
        {
          setupRequest: (req) => {
            const room = roomOf(joinIndex++);
            return {
              ...req,
              method: 'PATCH',
              path: '/api/v1/waiting-room/join',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ waitingRoomId: room.code, userName: 'Guest' }),
            };
          },
          onResponse: (status, body, _context, headers) => {
            if (status !== 200) return;
            const key = Object.keys(headers).find((name) => name.toLowerCase() === 'set-cookie');
            const setCookie = [].concat(key ? headers[key] : []).find((c) => c.startsWith('fv_room='));
            const answer = JSON.parse(body);
            members.push({
              code: answer.waitingRoom.waitingRoomId,
              userId: answer.userId,
              cookie: setCookie.split(';')[0],
            });
          },
        },
      ],
    });

    log(`vote through the gateway: ${members.length} ballots`);
    let voteIndex = 0;
    const batchOf = new Map(rooms.map((r) => [r.code, r.batch]));
    const vote = await run({
      url,
      connections,
      amount: members.length,
      requests: [
        {
          setupRequest: (req) => {
            const member = members[voteIndex++ % members.length];
            const votes = batchOf.get(member.code).map((placeId) => ({ placeId, voteType: 'up' }));
            return {
              ...req,
              method: 'PATCH',
              path: '/api/v1/waiting-room/vote',
              headers: { 'content-type': 'application/json', cookie: member.cookie },
              body: JSON.stringify({ waitingRoomId: member.code, userId: member.userId, votes }),
            };
          },
        },
      ],
    });

    log(`verify-token through the gateway: ${seconds} s`);
    const verify = await run({
      url: `${url}/api/v1/auth/verify-token`,
      connections,
      duration: seconds,
      method: 'POST',
      headers: { cookie: hostCookie },
    });

    log('the same calls straight to the services');
    const bareMembers = [];
    const bareJoin = await bare('join (service only)', client, amount, connections, (i) => [
      ROOMS.join,
      { body: { waitingRoomId: roomOf(i).code, userName: 'Guest' } },
    ]);
    // Members for the bare vote run, joined the same way (their room tokens carry the room id).
    await pool(Array.from({ length: amount }), connections, async (_, i) => {
      const answer = await callService(client, ROOMS.join, {
        body: { waitingRoomId: roomOf(i).code, userName: 'Guest' },
      });
      const claims = verifyMemberToken(answer.memberToken, config.JWT_SECRET);
      bareMembers.push({ roomId: claims.roomId, code: claims.code, userId: claims.userId });
    });
    const bareVote = await bare('vote (service only)', client, bareMembers.length, connections, (i) => {
      const member = bareMembers[i];
      const votes = batchOf.get(member.code).map((placeId) => ({ placeId, voteType: 'up' }));
      return [
        ROOMS.vote,
        {
          roomId: member.roomId,
          userId: member.userId,
          body: { waitingRoomId: member.code, userId: member.userId, votes },
        },
      ];
    });
    const bareVerify = await bare(
      'verify-token (service only)',
      client,
      Math.max(2000, Math.round(verify.requests.average * seconds)),
      connections,
      () => [AUTH.verify, { userId: sessionClaims.sub }],
    );

    const rows = [
      summarize('join (gateway)', join),
      bareJoin,
      summarize('vote (gateway)', vote),
      bareVote,
      summarize('verify-token (gateway)', verify),
      bareVerify,
    ];
    const overhead = [
      ['join', rows[0], rows[1]],
      ['vote', rows[2], rows[3]],
      ['verify-token', rows[4], rows[5]],
    ].map(([name, gateway, service]) => ({
      call: name,
      gatewayAddsP50Ms: Math.round((gateway.p50Ms - service.p50Ms) * 100) / 100,
      throughputRatio: Math.round((gateway.requestsPerSecond / service.requestsPerSecond) * 100) / 100,
    }));
    const result = { connections, requests: amount, verifySeconds: seconds, rows, overhead };
    if (args.json) console.log(JSON.stringify(result, null, 2));
    else {
      console.table(rows);
      console.table(overhead);
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
