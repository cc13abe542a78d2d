import Redis from 'ioredis';

/**
 * Room events travel over Redis: each is appended to the room's short log (a capped stream whose entry id
 * is the event id, so a reconnecting browser can ask for what it missed) and published on one channel that
 * every gateway process subscribes to once. Both happen in one Lua call, so the id in the log and the one
 * published always agree.
 */
export const roomEventKeys = {
  log: (prefix: string, roomId: string) => `${prefix}:room-log:${roomId}`,
  /** The highest outbox id already in the room's log. */
  seq: (prefix: string, roomId: string) => `${prefix}:room-log:${roomId}:seq`,
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

/** An event as the rooms outbox holds it: its outbox id orders and deduplicates it per room. */
export interface OutboxRoomEvent {
  outboxId: string;
  roomId: string;
  event: string;
  data: object;
}

/**
 * Appends one outbox event to the room's log and publishes it, once: the room's `seq` key remembers the
 * highest outbox id already in the log, so an event the relay publishes again (it crashed after publishing,
 * before marking it sent) is skipped. Outbox ids of one room grow in commit order (each is written under the
 * room's row lock), so "not above the last" means "already there".
 */
const PUBLISH_SCRIPT = `
local last = tonumber(redis.call('GET', KEYS[3]) or '0')
if tonumber(ARGV[5]) <= last then return false end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'e', ARGV[2], 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], 86400)
redis.call('SET', KEYS[3], ARGV[5], 'EX', 86400)
redis.call('PUBLISH', KEYS[2], ARGV[4] .. '\\n' .. id .. '\\n' .. ARGV[2] .. '\\n' .. ARGV[3])
return id`;

/**
 * Publishes outbox events in their order (one pipeline: Redis runs them in the order sent). Answers each
 * event's log id, or null for one that was already published.
 */
export async function publishRoomEvents(
  redis: Redis,
  prefix: string,
  events: OutboxRoomEvent[],
): Promise<(string | null)[]> {
  const sentAt = Date.now();
  return Promise.all(
    events.map(
      (e) =>
        redis.eval(
          PUBLISH_SCRIPT,
          3,
          roomEventKeys.log(prefix, e.roomId),
          roomEventKeys.channel(prefix),
          roomEventKeys.seq(prefix, e.roomId),
          ROOM_LOG_LENGTH,
          e.event,
          JSON.stringify({ ...e.data, sentAt }),
          e.roomId,
          e.outboxId,
        ) as Promise<string | null>,
    ),
  );
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
