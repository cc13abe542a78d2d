import type { RedisTarget } from '../redis';

/**
 * Redis key names of the Redis Streams transport, in one place so server, client and tests agree. The part
 * in braces is the key's hash tag: on Redis Cluster it alone picks the slot, so streams of different
 * services (and replies of different callers) spread over the shards.
 */
export const streamKeys = {
  /** Requests for one service; all its replicas read it in one consumer group named after the service. */
  requests: (prefix: string, service: string) => `${prefix}:rpc:{${service}}`,
  /** One stream per event pattern; every interested service reads it through a group of its own. */
  events: (prefix: string, pattern: string) => `${prefix}:evt:{${pattern}}`,
  /** Sharded pub/sub channel (SPUBLISH) on which one caller process receives its replies. */
  replies: (prefix: string, clientId: string) => `${prefix}:reply:{${clientId}}`,
};

/** What a request entry carries (JSON in the entry's `m` field). */
export interface RequestEnvelope {
  /** Chosen by the caller; stays the same if the request is redelivered, so handlers can be idempotent. */
  id: string;
  pattern: string;
  data: unknown;
  replyTo: string;
  /** Epoch ms after which the caller has given up; a replica that sees it later drops it unprocessed. */
  deadline: number;
  /** The id of the HTTP request (or the request) this call is made for: logged by the handling service. */
  requestId?: string;
  /** W3C trace context (`traceparent`, `tracestate`) of the caller's span. */
  trace?: Record<string, string>;
}

export interface ReplyEnvelope {
  id: string;
  response?: unknown;
  err?: unknown;
}

export interface EventEnvelope {
  pattern: string;
  data: unknown;
}

export interface StreamsTransportOptions {
  /** Where Redis is (one server, or Redis Cluster nodes): the same target every connection is made for. */
  redis: RedisTarget;
  prefix: string;
  /** Idle time after which a pending request of a silent replica is claimed by another. */
  claimIdleMs: number;
  /** Approximate maximum length of each stream (XADD MAXLEN ~). */
  maxLen: number;
}
