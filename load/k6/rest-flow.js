// k6 REST flow, sustained: whole sessions of realistic rooms arrive at a constant rate, through the gateway.
// Each iteration is one room: its host opens it, 1–11 guests join (2–12 people in all), the host starts
// voting, and every member votes, which closes the batch; the last ballot answers with the results.
//   k6 run -e BASE_URL=https://forkvote.example.com -e HOST_EMAIL=... -e HOST_PASSWORD=... \
//          -e RATE=5 -e DURATION=2m load/k6/rest-flow.js
// The host must be a subscriber (an account with an active plan). Guests need no account. The rooms'
// event streams are listened to by sse-fanout.js (it needs k6 with the SSE extension); this script runs on
// a stock k6.
import http from 'k6/http';
import { check, fail } from 'k6';
import { json, login } from './lib.js';
import { Counter, Trend } from 'k6/metrics';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
/** Rooms starting per second (each a whole session), for DURATION. */
const RATE = Number(__ENV.RATE || 5);
const DURATION = __ENV.DURATION || '2m';
/** People per room, host included: uniformly from MIN_PEOPLE to MAX_PEOPLE. */
const MIN_PEOPLE = Number(__ENV.MIN_PEOPLE || 2);
const MAX_PEOPLE = Number(__ENV.MAX_PEOPLE || 12);
const joinTime = new Trend('forkvote_join_ms', true);
const voteTime = new Trend('forkvote_vote_ms', true);
const startTime = new Trend('forkvote_start_ms', true);
const closed = new Counter('forkvote_batches_closed');

export const options = {
  scenarios: {
    rooms: {
      // Open model: a new room every 1/RATE s whether or not the last one finished, so a slow server shows
      // as latency and dropped iterations, never as politely slower clients.
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: DURATION,
      preAllocatedVUs: Math.max(10, RATE * 4),
      maxVUs: RATE * 20,
    },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    forkvote_join_ms: ['p(99)<300'],
    forkvote_vote_ms: ['p(99)<300'],
    forkvote_start_ms: ['p(99)<2000'],
    checks: ['rate>0.99'],
    dropped_iterations: [`count<${Math.ceil(RATE * 2)}`],
  },
};

/** The host's session cookie, shared by every iteration (one login for the whole run). */
export function setup() {
  return { session: login(BASE_URL) };
}

const START = JSON.stringify({
  latitude: 40.7484,
  longitude: -73.9967,
  radiusInMeters: 8046.7,
  includedTypes: ['restaurant'],
  excludedTypes: [],
  maxResultCount: 20,
  rankPreference: 'popularity',
});

/** @param {{ session: string }} data */
export default function (data) {
  const hostJar = new http.CookieJar();
  hostJar.set(BASE_URL, 'fv_session', data.session);
  const created = http.post(
    `${BASE_URL}/api/v1/waiting-room/create`,
    JSON.stringify({ userName: 'k6 host' }),
    {
      ...json,
      jar: hostJar,
    },
  );
  if (!check(created, { created: (r) => r.status === 200 })) return;
  const room = /** @type {any} */ (created.json());
  const code = room.waitingRoom.waitingRoomId;
  const members = [{ jar: hostJar, userId: room.userId }];

  const people = MIN_PEOPLE + Math.floor(Math.random() * (MAX_PEOPLE - MIN_PEOPLE + 1));
  for (let i = 1; i < people; i++) {
    // Each guest its own cookie jar: its room cookie binds it to its own guest id.
    const jar = new http.CookieJar();
    const joined = http.patch(
      `${BASE_URL}/api/v1/waiting-room/join`,
      JSON.stringify({ waitingRoomId: code, userName: `guest ${i}` }),
      { ...json, jar },
    );
    joinTime.add(joined.timings.duration);
    if (!check(joined, { joined: (r) => r.status === 200 })) return;
    members.push({ jar, userId: /** @type {any} */ (joined.json()).userId });
  }

  const started = http.post(`${BASE_URL}/api/v1/waiting-room/start`, START, {
    headers: { ...json.headers, Authorization: `Bearer ${room.token}` },
    jar: hostJar,
  });
  startTime.add(started.timings.duration);
  if (!check(started, { started: (r) => r.status === 200 })) return;
  const batch = /** @type {any} */ (started.json()).places.slice(0, 5);

  let last;
  for (const [n, member] of members.entries()) {
    const votes = batch.map((/** @type {any} */ place, /** @type {number} */ i) => ({
      placeId: place.id,
      voteType: (i + n) % 3 ? 'up' : 'down',
    }));
    last = http.patch(
      `${BASE_URL}/api/v1/waiting-room/vote`,
      JSON.stringify({ waitingRoomId: code, userId: member.userId, votes }),
      { ...json, jar: member.jar },
    );
    voteTime.add(last.timings.duration);
    if (!check(last, { voted: (r) => r.status === 200 })) return;
  }
  // The last ballot closed the batch: the room is at its results.
  const current = http.get(`${BASE_URL}/api/v1/waiting-room/current`, { jar: hostJar });
  if (
    check(current, { 'batch closed': (r) => /** @type {any} */ (r.json()).waitingRoom.state === 'results' })
  )
    closed.add(1);
  if (!last) fail('no ballot was cast');
}
