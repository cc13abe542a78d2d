import { ERROR_CODES, RpcErrorBody } from '@forkvote/contracts';
import type Redis from 'ioredis';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { SERVICE_VERSION } from './version';
import type { DataSource } from 'typeorm';

/*
 * One Prometheus registry per process (prom-client). Every process has the default Node metrics (event-loop
 * lag, heap, GC, CPU) and its RPC calls as caller and as handler; each service its database pool and its
 * stream's pending count and lag; the gateway adds HTTP and SSE (gateway-metrics.ts), rooms its outbox. Names start with
 * `forkvote_`; the `service` label says which process (deploy/monitoring reads them).
 */
export const metricsRegistry = new Registry();

/** Seconds, from 1 ms (a cached call) to 10 s (past every timeout). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let started = false;
/** Names the process in every series and starts the default Node metrics; once per process. */
export function startProcessMetrics(service: string): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 20 });
  // Always 1: its labels say which release and runtime each process runs (join on it in queries).
  new Gauge({
    name: fresh('forkvote_build_info'),
    help: 'The release and Node.js version this process runs',
    labelNames: ['version', 'node'],
    registers: [metricsRegistry],
  })
    .labels(SERVICE_VERSION, process.versions.node)
    .set(1);
}

/**
 * A metric's child for one set of label values (in the order of its `labelNames`), made once and kept:
 * prom-client otherwise checks and hashes the label object on every call, a cost on each request.
 */
export function labelledChildren<C>(metric: { labels(...values: string[]): C }): (...values: string[]) => C {
  const children = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (!child) children.set(key, (child = metric.labels(...values)));
    return child;
  };
}

export const rpcClientDuration = new Histogram({
  name: 'forkvote_rpc_client_duration_seconds',
  help: 'Calls this process made over the transport, by pattern and outcome, from send to answer',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

export const rpcServerDuration = new Histogram({
  name: 'forkvote_rpc_server_duration_seconds',
  help: 'Requests this service handled, by pattern and outcome, from read to reply',
  labelNames: ['pattern', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [metricsRegistry],
});

/** By pattern, outcome. */
export const rpcClientTimer = labelledChildren(rpcClientDuration);
export const rpcServerTimer = labelledChildren(rpcServerDuration);

/**
 * ok; refused (the caller's fault: 4xx); failed (the service's: 5xx); timeout (no answer in time, or the
 * service could not be reached).
 */
export function rpcOutcome(err: unknown): 'ok' | 'refused' | 'failed' | 'timeout' {
  if (err === undefined || err === null) return 'ok';
  const body = err as Partial<RpcErrorBody>;
  if (body.code === ERROR_CODES.serviceTimeout) return 'timeout';
  return typeof body.statusCode === 'number' && body.statusCode < 500 ? 'refused' : 'failed';
}

/** A scrape-time gauge replaces an earlier one of its name (a test may start a service twice in a process). */
function fresh(name: string): string {
  metricsRegistry.removeSingleMetric(name);
  return name;
}

/** Pending requests and lag of each consumer group on the given streams (XINFO GROUPS, at scrape time). */
export function registerStreamGauges(redis: Redis, streams: () => string[]): void {
  const read = async () => {
    const rows: { stream: string; group: string; pending: number; lag: number | null }[] = [];
    for (const stream of streams()) {
      const groups = (await redis.xinfo('GROUPS', stream).catch(() => [])) as unknown[][];
      for (const group of groups) {
        const fields: Record<string, unknown> = {};
        for (let i = 0; i < group.length; i += 2) fields[String(group[i])] = group[i + 1];
        rows.push({
          stream,
          group: String(fields.name),
          pending: Number(fields.pending ?? 0),
          lag: fields.lag === null || fields.lag === undefined ? null : Number(fields.lag),
        });
      }
    }
    return rows;
  };
  let last: Promise<Awaited<ReturnType<typeof read>>> | null = null;
  // Both gauges are filled from one XINFO per stream per scrape.
  const once = () => (last ??= read().finally(() => setTimeout(() => (last = null), 100)));
  new Gauge({
    name: fresh('forkvote_stream_pending'),
    help: 'Requests delivered to a consumer group and not yet acknowledged',
    labelNames: ['stream', 'group'] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const row of await once()) this.set({ stream: row.stream, group: row.group }, row.pending);
    },
  });
  new Gauge({
    name: fresh('forkvote_stream_lag'),
    help: 'Entries in the stream that the consumer group has not read yet',
    labelNames: ['stream', 'group'] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const row of await once()) {
        if (row.lag !== null) this.set({ stream: row.stream, group: row.group }, row.lag);
      }
    },
  });
}

/** The PostgreSQL pool: connections open, idle, and callers waiting for one. */
export function registerPoolGauges(dataSource: DataSource): void {
  type Pool = { totalCount: number; idleCount: number; waitingCount: number };
  const pool = () => (dataSource.driver as unknown as { master?: Pool }).master;
  new Gauge({
    name: fresh('forkvote_db_pool_connections'),
    help: 'PostgreSQL pool connections by state: total, idle, waiting (callers queued for one)',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    collect() {
      const current = pool();
      if (!current) return;
      this.set({ state: 'total' }, current.totalCount);
      this.set({ state: 'idle' }, current.idleCount);
      this.set({ state: 'waiting' }, current.waitingCount);
    },
  });
}

/** A gauge read by a query at scrape time (rooms' outbox backlog). */
export function registerQueryGauge(name: string, help: string, read: () => Promise<number>): void {
  new Gauge({
    name: fresh(name),
    help,
    registers: [metricsRegistry],
    async collect() {
      this.set(await read().catch(() => Number.NaN));
    },
  });
}

/** Answers a scrape: the text format Prometheus reads. */
export async function serveMetrics(_req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const body = await metricsRegistry.metrics();
    res.writeHead(200, { 'Content-Type': metricsRegistry.contentType });
    res.end(body);
  } catch (err) {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end(`metrics failed: ${(err as Error).message}`);
  }
}
