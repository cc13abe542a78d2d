// @ts-check
/**
 * Holds a share of the SSE connections (a process may hold at most 20,000 open files here). Counts the
 * events it receives and the publish→receive latency of each, from the event's own `sentAt`.
 */
'use strict';
const http = require('node:http');
const { readFrames } = require('../lib/sse');

/** @type {{ url: string, members: { code: string, userId: string, cookie: string }[] }} */
let job;
const sockets = [];
const latencies = [];
let subscribed = 0;
let received = 0;

function open(member) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${job.url}/api/v1/waiting-room/events/${member.code}?userId=${encodeURIComponent(member.userId)}&userName=bench`,
      { agent: false, headers: { Accept: 'text/event-stream', Cookie: member.cookie } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        let first = true;
        readFrames(res, (frame) => {
          if (frame.includes('event: SUBSCRIBED_TO_SSE')) {
            subscribed += 1;
            if (first) {
              first = false;
              resolve(undefined);
            }
          } else if (frame.includes('event: USER_JOINED')) {
            const data = frame.slice(frame.indexOf('data: ') + 6);
            latencies.push(Date.now() - JSON.parse(data).sentAt);
            received += 1;
          }
        });
        sockets.push(res);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

process.on('message', async (message) => {
  if (message.type === 'connect') {
    job = message;
    const started = Date.now();
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: 100 }, async () => {
        while (next < job.members.length) {
          const member = job.members[next++];
          await open(member).catch(() => (failed += 1));
        }
      }),
    );
    process.send({ type: 'connected', count: subscribed, failed, ms: Date.now() - started });
  } else if (message.type === 'report') {
    process.send({ type: 'report', received, latencies });
  } else if (message.type === 'close') {
    for (const res of sockets) res.destroy();
    process.exit(0);
  }
});
