import Redis from 'ioredis';

/**
 * Room events travel over Redis: each is appended to the room's short log (a capped stream whose entry id
 * is the event id, so a reconnecting browser can ask for what it missed) and published on one channel that
 * every gateway process subscribes to once. Both happen in one Lua call, so the id in the log and the one
 * published always agree.
 */
export const roomEventKeys = {
  log: (prefix: string, roomId: string) => `${prefix}:room-log:${roomId}`,
  channel: (prefix: string) => `${prefix}:room-events`,
};

/** Entries kept per room: far more than one session produces, small enough to stay cheap. */
export const ROOM_LOG_LENGTH = 500;

export interface PublishedRoomEvent {
  roomId: string;
  id: string;
  event: string;
  /** JSON text of the event's data. */
  data: string;
}

const PUBLISH_SCRIPT = `
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'e', ARGV[2], 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], 86400)
redis.call('PUBLISH', KEYS[2], ARGV[4] .. '\\n' .. id .. '\\n' .. ARGV[2] .. '\\n' .. ARGV[3])
return id`;

export async function publishRoomEvent(
  redis: Redis,
  prefix: string,
  roomId: string,
  event: string,
  data: object,
): Promise<string> {
  const json = JSON.stringify({ ...data, sentAt: Date.now() });
  return (await redis.eval(
    PUBLISH_SCRIPT,
    2,
    roomEventKeys.log(prefix, roomId),
    roomEventKeys.channel(prefix),
    ROOM_LOG_LENGTH,
    event,
    json,
    roomId,
  )) as string;
}

/** Parses a message from the channel; null if it is not one of ours. */
export function parseRoomEvent(message: string): PublishedRoomEvent | null {
  const first = message.indexOf('\n');
  const second = message.indexOf('\n', first + 1);
  const third = message.indexOf('\n', second + 1);
  if (first < 0 || second < 0 || third < 0) return null;
  return {
    roomId: message.slice(0, first),
    id: message.slice(first + 1, second),
    event: message.slice(second + 1, third),
    data: message.slice(third + 1),
  };
}

/** Events of a room after `afterId` (exclusive), oldest first. */
export async function roomEventsAfter(
  redis: Redis,
  prefix: string,
  roomId: string,
  afterId: string,
): Promise<PublishedRoomEvent[]> {
  const entries = (await redis.xrange(roomEventKeys.log(prefix, roomId), `(${afterId}`, '+')) as [
    string,
    string[],
  ][];
  return entries.map(([id, fields]) => ({ roomId, id, event: fields[1], data: fields[3] }));
}

/** The id of the newest event of a room, or null. */
export async function lastRoomEventId(redis: Redis, prefix: string, roomId: string): Promise<string | null> {
  const entries = (await redis.xrevrange(roomEventKeys.log(prefix, roomId), '+', '-', 'COUNT', 1)) as [
    string,
    string[],
  ][];
  return entries[0]?.[0] ?? null;
}
