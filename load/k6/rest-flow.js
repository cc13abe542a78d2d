// k6 REST flow: guests join a room the setup made, then vote, through the gateway.
//   k6 run -e BASE_URL=https://forkvote.example.com -e HOST_EMAIL=... -e HOST_PASSWORD=... load/k6/rest-flow.js
// The host must be a subscriber (an account with an active plan). Guests need no account.
import http from 'k6/http';
import { check, fail } from 'k6';
import { hostRoom, json } from './lib.js';
import { Trend } from 'k6/metrics';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
const joinTime = new Trend('forkvote_join_ms', true);
const voteTime = new Trend('forkvote_vote_ms', true);

export const options = {
  scenarios: {
    guests: { executor: 'per-vu-iterations', vus: Number(__ENV.VUS || 50), iterations: 1, maxDuration: '2m' },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    forkvote_join_ms: ['p(99)<300'],
    forkvote_vote_ms: ['p(99)<300'],
    checks: ['rate>0.99'],
  },
};

export function setup() {
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
  return {
    code: room.waitingRoom.waitingRoomId,
    batch: /** @type {any} */ (started.json()).places.slice(0, 5).map((p) => p.id),
  };
}

export default function (data) {
  // Each VU has its own cookie jar, so its room cookie binds it to its own guest id.
  const joined = http.patch(
    `${BASE_URL}/api/v1/waiting-room/join`,
    JSON.stringify({ waitingRoomId: data.code, userName: `guest ${__VU}` }),
    json,
  );
  joinTime.add(joined.timings.duration);
  if (!check(joined, { joined: (r) => r.status === 200 })) return;
  const votes = data.batch.map((placeId, i) => ({ placeId, voteType: (i + __VU) % 2 ? 'up' : 'down' }));
  const voted = http.patch(
    `${BASE_URL}/api/v1/waiting-room/vote`,
    JSON.stringify({ waitingRoomId: data.code, userId: /** @type {any} */ (joined.json()).userId, votes }),
    json,
  );
  voteTime.add(voted.timings.duration);
  check(voted, { voted: (r) => r.status === 200 });
}
