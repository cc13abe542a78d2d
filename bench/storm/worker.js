// @ts-check
/**
 * One load process of the storm bench. It holds a share of the members' event streams, to the floor or to
 * the gateway, sends those members' ballots at the times it is given, and records when each ballot's
 * USER_VOTED and each room's BALLOTS_SUBMITTED reach each stream.
 */
'use strict';
const http = require('node:http');
const { readFrames } = require('../lib/sse');

/** @typedef {{ code: string, roomId: string, userId: string, cookie: string }} Member */

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
/** @type {http.IncomingMessage[]} */
const streams = [];
/**
 * Per target: [`room code:voter's user id`, received at] for USER_VOTED (a host's account may be in many
 * rooms), [room code, received at] for BALLOTS_SUBMITTED.
 */
const receipts = { gateway: { voted: [], submitted: [] }, floor: { voted: [], submitted: [] } };

/** The `event:` line's value of an SSE frame. */
function eventName(frame) {
  const at = frame.indexOf('event: ');
  if (at < 0) return '';
  const end = frame.indexOf('\n', at);
  return frame.slice(at + 7, end < 0 ? undefined : end);
}

/** A string field of the frame's JSON data, found without parsing it (the ids hold no quotes). */
function field(frame, name) {
  const at = frame.indexOf(`"${name}":"`);
  return at < 0 ? '' : frame.slice(at + name.length + 4, frame.indexOf('"', at + name.length + 4));
}

/** Opens one stream; resolves at its SUBSCRIBED_TO_SSE. */
function open(target, url, member) {
  const path =
    target === 'floor'
      ? `/rooms/${member.roomId}`
      : `/api/v1/waiting-room/events/${member.code}?userId=${encodeURIComponent(member.userId)}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${path}`,
      { agent: false, headers: { Accept: 'text/event-stream', Cookie: member.cookie } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        readFrames(res, (frame) => {
          const at = Date.now();
          // Read as little as possible: the load processes share the machine with what they measure.
          const name = eventName(frame);
          if (name === 'SUBSCRIBED_TO_SSE') resolve(undefined);
          else if (name === 'USER_VOTED') {
            receipts[target].voted.push([`${member.code}:${field(frame, 'userId')}`, at]);
          } else if (name === 'BALLOTS_SUBMITTED') {
            receipts[target].submitted.push([member.code, at]);
          }
        });
        streams.push(res);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Sends one member's ballot (yes to all five places); resolves with the time it left and its answer's. */
function vote(url, member, placeIds) {
  const body = JSON.stringify({
    waitingRoomId: member.code,
    userId: member.userId,
    votes: placeIds.map((placeId) => ({ placeId, voteType: 'up' })),
  });
  return new Promise((resolve) => {
    const sentAt = Date.now();
    const req = http.request(
      `${url}/api/v1/waiting-room/vote`,
      {
        method: 'PATCH',
        agent,
        headers: { 'Content-Type': 'application/json', Cookie: member.cookie, Origin: url },
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            sentAt,
            answeredMs: Date.now() - sentAt,
            ok: res.statusCode === 200,
            status: res.statusCode,
          }),
        );
      },
    );
    // No answer at all: its error's code stands in for the status (ECONNRESET, say).
    req.on('error', (err) =>
      resolve({
        sentAt,
        answeredMs: Date.now() - sentAt,
        ok: false,
        status: /** @type {NodeJS.ErrnoException} */ (err).code ?? err.message,
      }),
    );
    req.end(body);
  });
}

process.on('message', async (message) => {
  if (message.type === 'connect') {
    const { target, url, members } = message;
    const started = Date.now();
    let next = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < members.length) {
          const member = members[next++];
          await open(target, url, member).catch(() => (failed += 1));
        }
      }),
    );
    process.send?.({ type: 'connected', failed, ms: Date.now() - started });
  } else if (message.type === 'storm') {
    // Each member's ballot leaves at its own moment of the window, spread evenly.
    const { url, members, startAt, placesByCode } = message;
    const sent = await Promise.all(
      members.map(async (member) => {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, member.at - (Date.now() - startAt))));
        const answer = await vote(url, member, placesByCode[member.code]);
        return [
          `${member.code}:${member.userId}`,
          member.code,
          answer.sentAt,
          answer.ok,
          answer.status,
          answer.answeredMs,
        ];
      }),
    );
    process.send?.({ type: 'sent', sent });
  } else if (message.type === 'drop') {
    // Closes the streams held so far (the floor's, before the gateway's storm).
    for (const res of streams.splice(0)) res.destroy();
    process.send?.({ type: 'dropped' });
  } else if (message.type === 'report') {
    process.send?.({ type: 'report', receipts });
  } else if (message.type === 'close') {
    for (const res of streams) res.destroy();
    process.exit(0);
  }
});
