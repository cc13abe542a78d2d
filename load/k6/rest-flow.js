// k6 REST flow, sustained: guests join rooms the setup made and vote, at a constant arrival rate, through
// the gateway.
//   k6 run -e BASE_URL=https://forkvote.example.com -e HOST_EMAIL=... -e HOST_PASSWORD=... \
//          -e RATE=200 -e DURATION=2m -e ROOMS=20 load/k6/rest-flow.js
// The host must be a subscriber (an account with an active plan). Guests need no account.
import http from 'k6/http';
import { check, fail } from 'k6';
import { hostRoom, json } from './lib.js';
import { Trend } from 'k6/metrics';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
/** Guests arriving per second (each joins and votes once), for DURATION. */
const RATE = Number(__ENV.RATE || 100);
const DURATION = __ENV.DURATION || '2m';
/** Rooms the guests are spread over; the host never votes, so each room's batch stays open. */
const ROOMS = Number(__ENV.ROOMS || 20);
const joinTime = new Trend('forkvote_join_ms', true);
const voteTime = new Trend('forkvote_vote_ms', true);

export const options = {
  scenarios: {
    guests: {
      // Open model: a new guest every 1/RATE s whether or not the last one got its answer, so a slow server
      // shows as latency and dropped iterations, never as a politely slower client.
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(10, Math.ceil(RATE / 2)),
      maxVUs: RATE * 4,
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    forkvote_join_ms: ['p(99)<300'],
    forkvote_vote_ms: ['p(99)<300'],
    checks: ['rate>0.99'],
    // The server kept up: (almost) every planned guest could start.
    dropped_iterations: [`count<${Math.ceil(RATE)}`],
  },
};

export function setup() {
  const rooms = [];
  for (let i = 0; i < ROOMS; i++) {
    const room = hostRoom(BASE_URL);
    const started = http.post(
      `${BASE_URL}/api/v1/waiting-room/start`,
      JSON.stringify({
        latitude: 40.7484,
        longitude: -73.9967,
        radiusInMeters: 8046.7,
        maxResultCount: 20,
        rankPreference: 'popularity',
      }),
      { headers: { ...json.headers, Authorization: `Bearer ${room.token}` } },
    );
    if (started.status !== 200) fail(`start failed: ${started.status} ${started.body}`);
    rooms.push({
      code: room.waitingRoom.waitingRoomId,
      batch: /** @type {any} */ (started.json()).places.slice(0, 5).map((/** @type {any} */ p) => p.id),
    });
  }
  return { rooms };
}

/** @param {{ rooms: { code: string, batch: string[] }[] }} data */
export default function (data) {
  // A new guest each iteration: its own cookie jar, so its room cookie binds it to its own guest id.
  const jar = new http.CookieJar();
  const room = data.rooms[Math.floor(Math.random() * data.rooms.length)];
  const joined = http.patch(
    `${BASE_URL}/api/v1/waiting-room/join`,
    JSON.stringify({ waitingRoomId: room.code, userName: `guest ${__VU}-${__ITER}` }),
    { ...json, jar },
  );
  joinTime.add(joined.timings.duration);
  if (!check(joined, { joined: (r) => r.status === 200 })) return;
  const votes = room.batch.map((placeId, i) => ({ placeId, voteType: (i + __ITER) % 2 ? 'up' : 'down' }));
  const voted = http.patch(
    `${BASE_URL}/api/v1/waiting-room/vote`,
    JSON.stringify({ waitingRoomId: room.code, userId: /** @type {any} */ (joined.json()).userId, votes }),
    { ...json, jar },
  );
  voteTime.add(voted.timings.duration);
  check(voted, { voted: (r) => r.status === 200 });
}
