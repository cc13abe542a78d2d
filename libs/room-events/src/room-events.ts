import { ROOM_EVENTS } from '@forkvote/contracts';
import Redis from 'ioredis';

/**
 * Room events travel over Redis: each is appended to the room's short log (a capped stream whose entry id
 * is the event id, so a reconnecting browser can ask for what it missed) and published on the room's own
 * sharded channel, to which a gateway process subscribes while it has clients in the room. Both happen in
 * one Lua call, so the id in the log and the one published always agree. The same call keeps the room's
 * member set, which gateways read to admit a stream without asking rooms.
 *
 * Every key of a room carries the room id as its hash tag (`{…}`): on Redis Cluster they share one slot,
 * which the Lua call needs, and different rooms spread over the shards.
 */
export const roomEventKeys = {
  log: (prefix: string, roomId: string) => `${prefix}:room-log:{${roomId}}`,
  /** The highest outbox id already in the room's log. */
  seq: (prefix: string, roomId: string) => `${prefix}:room-log:{${roomId}}:seq`,
  /** Sharded pub/sub channel (SPUBLISH / SSUBSCRIBE) of the room's live events. */
  channel: (prefix: string, roomId: string) => `${prefix}:room-events:{${roomId}}`,
  /** The user ids of the room's present members, kept from its USER_JOINED and USER_LEFT events. */
  members: (prefix: string, roomId: string) => `${prefix}:room-members:{${roomId}}`,
};

/** Entries kept per room: far more than one session produces, small enough to stay cheap. */
export const ROOM_LOG_LENGTH = 500;

export interface PublishedRoomEvent {
  roomId: string;
  id: string;
  event: string;
  /** JSON text of the event's data. */
  data: string;
  /** The W3C traceparent of the event's publish, when it was written inside a trace. */
  traceparent?: string;
}

/** An event as the rooms outbox holds it: its outbox id orders and deduplicates it per room. */
export interface OutboxRoomEvent {
  outboxId: string;
  roomId: string;
  event: string;
  data: object;
  /** The publish's trace context, carried to the gateways' fan-out (never to browsers). */
  traceparent?: string | null;
}

/**
 * The traceparent rides at the end of the event's JSON (`…,"traceparent":"00-…-01"}`, always 73
 * characters), where a reader takes it off without parsing: browsers never see it, and a gateway of an
 * earlier release, which passes it on, breaks nothing.
 */
const TRACE_FIELD = ',"traceparent":"';
const TRACE_TAIL = TRACE_FIELD.length + 55 + 2;

function withoutTraceparent(roomId: string, id: string, event: string, data: string): PublishedRoomEvent {
  const at = data.length - TRACE_TAIL;
  if (at > 0 && data.startsWith(TRACE_FIELD, at) && data.endsWith('"}')) {
    return {
      roomId,
      id,
      event,
      data: `${data.slice(0, at)}}`,
      traceparent: data.slice(at + TRACE_FIELD.length, -2),
    };
  }
  return { roomId, id, event, data };
}

/**
 * Appends one outbox event to the room's log, applies its membership change and publishes it, once: the
 * room's `seq` key remembers the highest outbox id already in the log, so an event the relay publishes again
 * (it crashed after publishing, before marking it sent) is skipped. Outbox ids of one room grow in commit
 * order (each is written under the room's row lock), so "not above the last" means "already there".
 * ARGV[6] is the membership change: `+<userId>` joined, `-<userId>` left, `x` the room closed, or empty.
 */
const PUBLISH_SCRIPT = `
local last = tonumber(redis.call('GET', KEYS[3]) or '0')
if tonumber(ARGV[5]) <= last then return false end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'e', ARGV[2], 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], 86400)
redis.call('SET', KEYS[3], ARGV[5], 'EX', 86400)
local change = ARGV[6]
if change == 'x' then
  redis.call('DEL', KEYS[4])
elseif change ~= '' then
  local userId = string.sub(change, 2)
  if string.sub(change, 1, 1) == '+' then redis.call('SADD', KEYS[4], userId) else redis.call('SREM', KEYS[4], userId) end
  redis.call('EXPIRE', KEYS[4], 86400)
end
redis.call('SPUBLISH', KEYS[2], ARGV[4] .. '\\n' .. id .. '\\n' .. ARGV[2] .. '\\n' .. ARGV[3])
return id`;

/**
 * What a room event changes in the room's member set: `+<userId>` joined, `-<userId>` left, `x` the room
 * closed (nobody is a member any more), or '' nothing. Read by PUBLISH_SCRIPT (its ARGV[6]), which keeps
 * the set in Redis, and by gateways, which end the streams of a member who left.
 */
export function membershipChange(event: string, data: unknown): string {
  if (event !== ROOM_EVENTS.userJoined && event !== ROOM_EVENTS.userLeft) return '';
  const { userId, roomClosed } = (data ?? {}) as { userId?: unknown; roomClosed?: unknown };
  if (typeof userId !== 'string') return '';
  if (event === ROOM_EVENTS.userJoined) return `+${userId}`;
  return roomClosed === true ? 'x' : `-${userId}`;
}

/**
 * Publishes outbox events in their order (Redis runs one connection's commands in the order sent; on a
 * cluster, one room's events all go to its slot's shard). Answers each event's log id, or null for one that
 * was already published.
 */
export async function publishRoomEvents(
  redis: Redis,
  prefix: string,
  events: OutboxRoomEvent[],
): Promise<(string | null)[]> {
  const sentAt = Date.now();
  const client = withPublishCommand(redis);
  return Promise.all(
    events.map((e) =>
      client.forkvotePublishRoomEvent(
        roomEventKeys.log(prefix, e.roomId),
        roomEventKeys.channel(prefix, e.roomId),
        roomEventKeys.seq(prefix, e.roomId),
        roomEventKeys.members(prefix, e.roomId),
        ROOM_LOG_LENGTH,
        e.event,
        JSON.stringify({ ...e.data, sentAt, ...(e.traceparent ? { traceparent: e.traceparent } : {}) }),
        e.roomId,
        e.outboxId,
        membershipChange(e.event, e.data),
      ),
    ),
  );
}

type PublishingRedis = Redis & {
  forkvotePublishRoomEvent(...keysThenArgs: (string | number)[]): Promise<string | null>;
};

/**
 * The script as a command of the client (EVALSHA, loaded once). Not `eval(script, …)`: ioredis groups a
 * turn's commands by the slot of their first argument, which for EVAL is the script's text, so on Redis
 * Cluster the events of rooms on different shards would be sent as one pipeline and refused. A defined
 * command's first argument is its first key.
 */
function withPublishCommand(redis: Redis): PublishingRedis {
  const client = redis as PublishingRedis;
  if (typeof client.forkvotePublishRoomEvent !== 'function') {
    redis.defineCommand('forkvotePublishRoomEvent', { numberOfKeys: 4, lua: PUBLISH_SCRIPT });
  }
  return client;
}

/**
 * Whether the room's member set lists the user: true is an answer; false may only mean the set is not
 * there (Redis lost it, or the join's event is a moment away), so the caller asks rooms then.
 */
export async function listedMember(
  redis: Redis,
  prefix: string,
  roomId: string,
  userId: string,
): Promise<boolean> {
  return (await redis.sismember(roomEventKeys.members(prefix, roomId), userId)) === 1;
}

/** Parses a message from the channel; null if it is not one of ours. */
export function parseRoomEvent(message: string): PublishedRoomEvent | null {
  const first = message.indexOf('\n');
  const second = message.indexOf('\n', first + 1);
  const third = message.indexOf('\n', second + 1);
  if (first < 0 || second < 0 || third < 0) return null;
  return withoutTraceparent(
    message.slice(0, first),
    message.slice(first + 1, second),
    message.slice(second + 1, third),
    message.slice(third + 1),
  );
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
  return entries.map(([id, fields]) => withoutTraceparent(roomId, id, fields[1], fields[3]));
}

/** The id of the newest event of a room, or null. */
export async function lastRoomEventId(redis: Redis, prefix: string, roomId: string): Promise<string | null> {
  const entries = (await redis.xrevrange(roomEventKeys.log(prefix, roomId), '+', '-', 'COUNT', 1)) as [
    string,
    string[],
  ][];
  return entries[0]?.[0] ?? null;
}
