// k6 SSE fan-out over many small rooms: ROOMS rooms of ROOM_SIZE listeners each (default 200 × 5), every
// listener on its room's event stream, while the host scenario makes EVENTS events happen in every room.
// Each listener must receive every event of its room, in order: one that sees an event out of order (so
// it missed one) stops at once and is counted. Latency is measured on this k6 instance's own clock: the
// host puts its send time (Date.now()) into each event it causes (the joining name), and each listener
// subtracts it from its own Date.now() on receipt.
// Needs k6 built with the xk6-sse extension (see README.md):
//   ./k6 run -e BASE_URL=... -e HOST_EMAIL=... -e HOST_PASSWORD=... -e ROOMS=200 -e ROOM_SIZE=5 load/k6/sse-fanout.js
import http from 'k6/http';
import { check, sleep } from 'k6';
import { json, login, openRoom } from './lib.js';
import { Counter, Trend } from 'k6/metrics';
import sse from 'k6/x/sse';

const BASE_URL = __ENV.BASE_URL || 'http://localhost:3000';
const ROOMS = Number(__ENV.ROOMS || 50);
const ROOM_SIZE = Number(__ENV.ROOM_SIZE || 5);
const EVENTS = Number(__ENV.EVENTS || 10);
/** How long listeners get to connect before the host starts making events. */
const HOST_DELAY = __ENV.HOST_DELAY || '20s';
/** The names the host's joins carry: `k6 <n> <send time, ms>`. Nothing else in a room looks like it. */
const MARK = /^k6 (\d+) (\d{13})$/;

const latency = new Trend('forkvote_event_latency_ms', true);
const complete = new Counter('forkvote_listeners_with_every_event');
const missed = new Counter('forkvote_listeners_that_missed_an_event');

export const options = {
  scenarios: {
    listeners: {
      executor: 'per-vu-iterations',
      vus: ROOMS * ROOM_SIZE,
      iterations: 1,
      maxDuration: '5m',
      exec: 'listener',
    },
    host: { executor: 'per-vu-iterations', vus: 1, iterations: 1, startTime: HOST_DELAY, exec: 'host' },
  },
  thresholds: {
    forkvote_event_latency_ms: ['p(99)<100'],
    forkvote_listeners_with_every_event: [`count>=${ROOMS * ROOM_SIZE}`],
    forkvote_listeners_that_missed_an_event: ['count==0'],
  },
};

export function setup() {
  const session = login(BASE_URL);
  const codes = [];
  for (let i = 0; i < ROOMS; i++) codes.push(openRoom(BASE_URL, session).waitingRoom.waitingRoomId);
  return { codes };
}

/** @param {{ codes: string[] }} data */
export function listener(data) {
  // VUs are numbered from 1: ROOM_SIZE consecutive VUs share a room.
  const code = data.codes[Math.floor((__VU - 1) / ROOM_SIZE) % data.codes.length];
  const joined = http.patch(
    `${BASE_URL}/api/v1/waiting-room/join`,
    JSON.stringify({ waitingRoomId: code, userName: `listener ${__VU}` }),
    json,
  );
  if (!check(joined, { joined: (r) => r.status === 200 })) return;
  const { userId } = /** @type {any} */ (joined.json());
  const roomCookie = http.cookieJar().cookiesForURL(BASE_URL).fv_room[0];
  let next = 0;
  let gap = false;
  const response = sse.open(
    `${BASE_URL}/api/v1/waiting-room/events/${code}?userId=${userId}&userName=listener`,
    { headers: { Cookie: `fv_room=${roomCookie}` } },
    (client) => {
      client.on('event', (event) => {
        if (event.name !== 'USER_JOINED' || !event.data) return;
        const mark = MARK.exec(JSON.parse(event.data).userName ?? '');
        if (!mark) return;
        const n = Number(mark[1]);
        if (n !== next) {
          // An event skipped (or repeated): this listener's view is wrong from here; stop now.
          gap = true;
          client.close();
          return;
        }
        next += 1;
        latency.add(Date.now() - Number(mark[2]));
        if (next >= EVENTS) client.close();
      });
      client.on('error', (e) => console.error(`sse error: ${e.error()}`));
    },
  );
  check(response, { 'stream opened': (r) => r !== undefined && r.status === 200 });
  if (!gap && next >= EVENTS) complete.add(1);
  else missed.add(1);
}

/** @param {{ codes: string[] }} data */
export function host(data) {
  for (let i = 0; i < EVENTS; i++) {
    for (const code of data.codes) {
      // A fresh jar: a new member each time, so each join is a new USER_JOINED event in that room.
      http.patch(
        `${BASE_URL}/api/v1/waiting-room/join`,
        JSON.stringify({ waitingRoomId: code, userName: `k6 ${i} ${Date.now()}` }),
        { headers: json.headers, jar: new http.CookieJar() },
      );
    }
    sleep(0.2);
  }
}
