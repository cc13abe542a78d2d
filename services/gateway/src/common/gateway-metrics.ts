import { LATENCY_BUCKETS, metricsRegistry } from '@forkvote/platform';
import { Counter, Gauge, Histogram } from 'prom-client';

/** The gateway's own series, beside the ones every process has (libs/platform/src/metrics.ts). */
export const httpRequests = new Counter({
  name: 'forkvote_http_requests_total',
  help: 'HTTP requests answered by the gateway, by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'forkvote_http_request_duration_seconds',
  help: 'HTTP request duration at the gateway, by method, route and status (an event stream: until it ends)',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const sseConnections = new Gauge({
  name: 'forkvote_sse_connections',
  help: 'Room event streams this gateway holds open',
  registers: [metricsRegistry],
});

export const sseDisconnects = new Counter({
  name: 'forkvote_sse_disconnects_total',
  help: 'Room event streams that ended, by reason: client (the browser left), shutdown (we drained)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

export const sseFanoutLatency = new Histogram({
  name: 'forkvote_sse_fanout_latency_seconds',
  help: 'From a room event being published to its write to each client of this gateway',
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const sseRoomSubscriptions = new Gauge({
  name: 'forkvote_sse_room_subscriptions',
  help: 'Rooms whose event channel this gateway subscribes to: the rooms it has clients in',
  registers: [metricsRegistry],
});

export const sseRoomEventsReceived = new Counter({
  name: 'forkvote_sse_room_events_received_total',
  help: 'Room events this gateway received from Redis (only its own rooms: it subscribes per room)',
  registers: [metricsRegistry],
});
