// k6 SSE fan-out: SUBSCRIBERS guests listen to one room's event stream while the host's scenario makes EVENTS
// events happen. Counted per subscriber: each must receive every one of those events. Latency is measured
// on this k6 instance's own clock: the host puts its send time (Date.now()) into each event it causes (the
// joining name), and each subscriber subtracts it from its own Date.now() on receipt.
// Needs k6 built with the xk6-sse extension (see README.md):
//   ./k6 run -e BASE_URL=... -e HOST_EMAIL=... -e HOST_PASSWORD=... -e SUBSCRIBERS=500 load/k6/sse-fanout.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { hostRoom, json } from './lib.js';
import { Counter, Trend } from 'k6/metrics';
import sse from 'k6/x/sse';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
const SUBSCRIBERS = Number(__ENV.SUBSCRIBERS || 50);
const EVENTS = Number(__ENV.EVENTS || 10);
/** How long subscribers get to connect before the host starts making events. */
const HOST_DELAY = __ENV.HOST_DELAY || '15s';
/** The names the host's joins carry: `k6 <n> <send time, ms>`. Nothing else in the room looks like it. */
const MARK = /^k6 (\d+) (\d{13})$/;

const latency = new Trend('forkvote_event_latency_ms', true);
const complete = new Counter('forkvote_subscribers_with_every_event');
const missing = new Counter('forkvote_events_missed');

export const options = {
  scenarios: {
    subscribers: {
      executor: 'per-vu-iterations',
      vus: SUBSCRIBERS,
      iterations: 1,
      maxDuration: '3m',
      exec: 'subscriber',
    },
    host: { executor: 'per-vu-iterations', vus: 1, iterations: 1, startTime: HOST_DELAY, exec: 'host' },
  },
  thresholds: {
    forkvote_event_latency_ms: ['p(99)<50'],
    // Every subscriber saw every event the host made; none missed one.
    forkvote_subscribers_with_every_event: [`count>=${SUBSCRIBERS}`],
    forkvote_events_missed: ['count==0'],
  },
};

export function setup() {
  const room = hostRoom(BASE_URL);
  return { code: room.waitingRoom.waitingRoomId };
}

/** @param {{ code: string }} data */
export function subscriber(data) {
  const joined = http.patch(
    `${BASE_URL}/api/v1/waiting-room/join`,
    JSON.stringify({ waitingRoomId: data.code, userName: `sub ${__VU}` }),
    json,
  );
  if (!check(joined, { joined: (r) => r.status === 200 })) return;
  const { userId } = /** @type {any} */ (joined.json());
  const roomCookie = http.cookieJar().cookiesForURL(BASE_URL).fv_room[0];
  /** The host's events this subscriber has seen, by number. */
  const seen = new Set();
  const response = sse.open(
    `${BASE_URL}/api/v1/waiting-room/events/${data.code}?userId=${userId}&userName=sub`,
    { headers: { Cookie: `fv_room=${roomCookie}` } },
    (client) => {
      client.on('event', (event) => {
        if (event.name !== 'USER_JOINED' || !event.data) return;
        const mark = MARK.exec(JSON.parse(event.data).userName ?? '');
        if (!mark || seen.has(mark[1])) return;
        seen.add(mark[1]);
        latency.add(Date.now() - Number(mark[2]));
        if (seen.size >= EVENTS) client.close();
      });
      client.on('error', (e) => console.error(`sse error: ${e.error()}`));
    },
  );
  check(response, { 'stream opened': (r) => r !== undefined && r.status === 200 });
  if (seen.size >= EVENTS) complete.add(1);
  else missing.add(EVENTS - seen.size);
}

/** @param {{ code: string }} data */
export function host(data) {
  for (let i = 0; i < EVENTS; i++) {
    // A fresh jar: a new member each time, so each join is a new USER_JOINED event.
    http.patch(
      `${BASE_URL}/api/v1/waiting-room/join`,
      JSON.stringify({ waitingRoomId: data.code, userName: `k6 ${i} ${Date.now()}` }),
      { headers: json.headers, jar: new http.CookieJar() },
    );
    sleep(0.2);
  }
}
