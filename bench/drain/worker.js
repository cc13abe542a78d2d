// @ts-check
/**
 * One load process of the drain bench: holds a share of the members' streams like a browser's EventSource.
 * When a stream ends it waits the `retry:` the server last sent, then reconnects to the other gateway with
 * `Last-Event-ID`. It records every event id each member receives, and when each one is streaming again.
 */
'use strict';
const http = require('node:http');
const { readFrames } = require('../lib/sse');

/** @typedef {{ code: string, userId: string, cookie: string, url: string, fallbackUrl: string }} Member */

/** Per member (by index): event ids received, reconnections, and when the last one was subscribed. */
const state = [];
const streams = new Set();

function connect(member, index, url, lastEventId) {
  return new Promise((resolve) => {
    const s = state[index];
    const headers = { Accept: 'text/event-stream', Cookie: member.cookie };
    if (lastEventId) headers['Last-Event-ID'] = lastEventId;
    const req = http.request(
      `${url}/api/v1/waiting-room/events/${member.code}?userId=${encodeURIComponent(member.userId)}`,
      { agent: false, headers },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          s.failures += 1;
          return setTimeout(() => resolve(connect(member, index, url, s.lastId)), 1000);
        }
        streams.add(res);
        readFrames(res, (frame) => {
          const retry = /^retry: (\d+)$/m.exec(frame);
          if (retry) s.retryMs = Number(retry[1]);
          if (frame.includes('event: SUBSCRIBED_TO_SSE')) {
            s.subscribedAt = Date.now();
            s.url = url;
            resolve(undefined);
          }
          const id = /^id: (\S+)$/m.exec(frame);
          if (id) {
            s.ids.push(id[1]);
            s.lastId = id[1];
          }
        });
        res.on('close', () => {
          streams.delete(res);
          if (s.closing) return;
          // Like EventSource: wait the retry, then go on from the last id, through the load balancer
          // (here: the other gateway).
          s.droppedAt = Date.now();
          s.reconnects += 1;
          setTimeout(() => connect(member, index, member.fallbackUrl, s.lastId), s.retryMs);
        });
      },
    );
    req.on('error', () => {
      s.failures += 1;
      setTimeout(() => resolve(connect(member, index, url, s.lastId)), 1000);
    });
    req.end();
  });
}

process.on('message', async (message) => {
  if (message.type === 'connect') {
    const members = message.members;
    for (let i = 0; i < members.length; i++) {
      state.push({
        ids: [],
        lastId: null,
        retryMs: 1000,
        reconnects: 0,
        failures: 0,
        subscribedAt: 0,
        droppedAt: 0,
        url: '',
        closing: false,
      });
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < members.length) {
          const index = next++;
          // As the web app does: resume from the room's snapshot, here from its start (`0-0`), so even a
          // member who has seen no event yet reconnects with an id.
          await connect(members[index], index, members[index].url, '0-0');
        }
      }),
    );
    process.send?.({ type: 'connected' });
  } else if (message.type === 'report') {
    process.send?.({
      type: 'report',
      members: state.map((s) => ({
        ids: s.ids,
        reconnects: s.reconnects,
        failures: s.failures,
        subscribedAt: s.subscribedAt,
        droppedAt: s.droppedAt,
        url: s.url,
      })),
    });
  } else if (message.type === 'close') {
    for (const s of state) s.closing = true;
    for (const res of streams) res.destroy();
    process.exit(0);
  }
});
