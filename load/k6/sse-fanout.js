// k6 SSE fan-out: N subscribers per room listen to the room's events while the host makes them happen;
// checks every subscriber gets every event and measures publish→receive latency from the event's sentAt.
// Needs k6 built with the xk6-sse extension (see README.md):
//   ./k6 run -e BASE_URL=... -e HOST_EMAIL=... -e HOST_PASSWORD=... -e SUBSCRIBERS=50 load/k6/sse-fanout.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { hostRoom, json } from './lib.js';
import { Counter, Trend } from 'k6/metrics';
import sse from 'k6/x/sse';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
const SUBSCRIBERS = Number(__ENV.SUBSCRIBERS || 50);
const EXPECTED_EVENTS = Number(__ENV.EVENTS || 10);
const latency = new Trend('forkvote_event_latency_ms', true);
const received = new Counter('forkvote_events_received');

export const options = {
  scenarios: {
    subscribers: {
      executor: 'per-vu-iterations',
      vus: SUBSCRIBERS,
      iterations: 1,
      maxDuration: '3m',
      exec: 'subscriber',
    },
    host: { executor: 'per-vu-iterations', vus: 1, iterations: 1, startTime: '10s', exec: 'host' },
  },
  thresholds: {
    forkvote_event_latency_ms: ['p(99)<50'],
    forkvote_events_received: [`count>=${SUBSCRIBERS * EXPECTED_EVENTS}`],
  },
};

export function setup() {
  const room = hostRoom(BASE_URL);
  const cookies = http.cookieJar().cookiesForURL(BASE_URL);
  return { code: room.waitingRoom.waitingRoomId, hostToken: room.token, hostRoomCookie: cookies.fv_room[0] };
}

export function subscriber(data) {
  const joined = http.patch(
    `${BASE_URL}/api/v1/waiting-room/join`,
    JSON.stringify({ waitingRoomId: data.code, userName: `sub ${__VU}` }),
    json,
  );
  if (!check(joined, { joined: (r) => r.status === 200 })) return;
  const { userId } = /** @type {any} */ (joined.json());
  const roomCookie = http.cookieJar().cookiesForURL(BASE_URL).fv_room[0];
  let events = 0;
  const response = sse.open(
    `${BASE_URL}/api/v1/waiting-room/events/${data.code}?userId=${userId}&userName=sub`,
    { headers: { Cookie: `fv_room=${roomCookie}` } },
    (client) => {
      client.on('event', (event) => {
        if (event.name === 'SUBSCRIBED_TO_SSE' || !event.data) return;
        const sentAt = JSON.parse(event.data).sentAt;
        if (sentAt) latency.add(Date.now() - sentAt);
        received.add(1);
        events += 1;
        if (events >= EXPECTED_EVENTS) client.close();
      });
      client.on('error', (e) => console.error(`sse error: ${e.error()}`));
    },
  );
  check(response, { 'stream opened': (r) => r && r.status === 200 });
}

export function host(data) {
  // Joining members are events too; then each extra join by the host's script produces one more.
  for (let i = 0; i < EXPECTED_EVENTS; i++) {
    http.patch(
      `${BASE_URL}/api/v1/waiting-room/join`,
      JSON.stringify({ waitingRoomId: data.code, userName: `extra ${i}` }),
      {
        headers: json.headers,
        cookies: {},
        jar: new http.CookieJar(),
      },
    );
    sleep(0.2);
  }
}
