// @ts-check
/**
 * The floor the gateway's event streams are measured against: the least a Node process can do to relay
 * room events over SSE. A bare `node:http` server, no framework, no checks: it subscribes to a room's
 * channel (the same sharded channel the gateway reads) when the room's first stream opens, and writes each
 * event's frame to the room's streams. Started by the storm bench; answers on the port it prints.
 */
'use strict';
const http = require('node:http');
const { createRedis } = require('@forkvote/platform');
const { parseRoomEvent, roomEventKeys } = require('@forkvote/room-events');

const [redisUrl, prefix, cluster] = process.argv.slice(2);
const subscriber = createRedis(
  { url: redisUrl, cluster: cluster === 'true' },
  { connectionName: 'bench-floor' },
);
/** @type {Map<string, Set<http.ServerResponse>>} */
const rooms = new Map();

subscriber.on('smessage', (_channel, message) => {
  const event = parseRoomEvent(message);
  const clients = event && rooms.get(event.roomId);
  if (!event || !clients) return;
  const frame = `id: ${event.id}\nevent: ${event.event}\ndata: ${event.data}\n\n`;
  for (const res of clients) res.write(frame);
});

const server = http.createServer(async (req, res) => {
  // /rooms/<roomId>: the bench knows each member's room id.
  const roomId = (req.url ?? '').split('/')[2];
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  let clients = rooms.get(roomId);
  if (!clients) {
    rooms.set(roomId, (clients = new Set()));
    await subscriber.ssubscribe(roomEventKeys.channel(prefix, roomId));
  }
  clients.add(res);
  res.on('close', () => {
    clients.delete(res);
    if (clients.size === 0) {
      rooms.delete(roomId);
      void subscriber.sunsubscribe(roomEventKeys.channel(prefix, roomId));
    }
  });
  res.write(`event: SUBSCRIBED_TO_SSE\ndata: {}\n\n`);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
});
