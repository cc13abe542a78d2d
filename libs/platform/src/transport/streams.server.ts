import { Logger } from '@nestjs/common';
import { BaseRpcContext, CustomTransportStrategy, Server } from '@nestjs/microservices';
import { isRpcErrorBody, rpcError, RpcErrorBody } from '@forkvote/contracts';
import type Redis from 'ioredis';
import { createRedis } from '../redis';
import { hostname } from 'node:os';
import { lastValueFrom } from 'rxjs';
import { rpcOutcome, rpcServerTimer } from '../metrics';
import { requestContext } from '../request-context';
import { context, contextFrom, endSpan, SpanKind, trace, tracer } from '../tracing';
import { RpcErrorFilter } from '../rpc-pipeline';
import {
  EventEnvelope,
  RequestEnvelope,
  ReplyEnvelope,
  streamKeys,
  StreamsTransportOptions,
} from './streams-keys';

export interface StreamsServerOptions extends StreamsTransportOptions {
  /** The service name: its requests stream and its consumer group. */
  service: string;
  /** This replica's consumer name; defaults to host name, pid and a random suffix. */
  consumer?: string;
  /** How long one XREADGROUP blocks waiting for work. */
  blockMs?: number;
  /** Entries fetched per read. */
  batchSize?: number;
  /** Requests processed at once by this replica; reading pauses above it. */
  maxInFlight?: number;
}

/** Lets a handler see the transport-level request id (stable across redeliveries) and pattern. */
export class StreamsContext extends BaseRpcContext<[requestId: string, pattern: string]> {
  getRequestId(): string {
    return this.args[0];
  }
  getPattern(): string {
    return this.args[1];
  }
}

type StreamEntry = [id: string, fields: string[]];

/**
 * NestJS transport strategy on Redis Streams consumer groups: each request is delivered to exactly one
 * replica of the service, acknowledged after the reply, and claimed by a live replica if the one holding it
 * dies. Handlers keep using @MessagePattern / @EventPattern.
 */
export class StreamsServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(StreamsServer.name);
  /** One blocking reader per stream: on Redis Cluster each stream may live on another shard. */
  private readers: Redis[] = [];
  private writer?: Redis;
  private running = false;
  private readLoopsDone?: Promise<unknown>;
  private claimTimer?: NodeJS.Timeout;
  private claiming = false;
  /** Entries being processed here, by entry id, with their stream. */
  private readonly inFlight = new Map<string, { key: string; work: Promise<void> }>();
  /** When each read loop last went round (a read returned, failed, or in-flight work made room). */
  private readonly loopedAt = new Map<string, number>();
  private readonly errors = new RpcErrorFilter();
  private readonly requestStream: string;
  private readonly consumer: string;

  constructor(private readonly options: StreamsServerOptions) {
    super();
    this.requestStream = streamKeys.requests(options.prefix, options.service);
    this.consumer =
      options.consumer || `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  }

  listen(callback: (...optionalParams: unknown[]) => void): void {
    this.start().then(
      () => callback(),
      (err: unknown) => callback(err),
    );
  }

  async close(): Promise<void> {
    this.running = false;
    clearInterval(this.claimTimer);
    // Unblocks the pending XREADGROUPs; each loop sees `running` false and ends.
    for (const reader of this.readers) reader.disconnect();
    await this.readLoopsDone;
    await Promise.allSettled([...this.inFlight.values()].map((entry) => entry.work));
    await this.writer?.quit().catch(() => undefined);
  }

  on(): void {
    throw new Error('StreamsServer does not expose transport events');
  }

  /**
   * Our patterns are plain names ('rooms.vote'), found as they are. Nest's own lookup first tries each as
   * JSON, and the SyntaxError it throws and catches for every request is a cost on every call.
   */
  override getHandlerByPattern(pattern: string) {
    return this.messageHandlers.get(pattern) ?? super.getHandlerByPattern(pattern);
  }

  unwrap<T>(): T {
    return this.writer as T;
  }

  /** Streams this replica reads: its requests (if it answers any) and one per event pattern it handles. */
  private streams(): string[] {
    const keys: string[] = [];
    let answersRequests = false;
    for (const [pattern, handler] of this.messageHandlers) {
      if (handler.isEventHandler) keys.push(streamKeys.events(this.options.prefix, pattern));
      else answersRequests = true;
    }
    if (answersRequests) keys.unshift(this.requestStream);
    return keys;
  }

  private async start(): Promise<void> {
    const target = this.options.redis;
    const redisOptions = { maxRetriesPerRequest: null, enableReadyCheck: true };
    // Replies and acknowledgements of a batch leave in one socket write instead of one each.
    this.writer = createRedis(target, {
      ...redisOptions,
      enableAutoPipelining: true,
      connectionName: `${this.consumer}:write`,
    });
    this.writer.on('error', (err) => this.running && this.logger.warn(`Redis (writer): ${err.message}`));
    await this.ensureGroups();
    this.running = true;
    this.readLoopsDone = Promise.all(
      this.streams().map((key) => {
        const reader = createRedis(target, { ...redisOptions, connectionName: `${this.consumer}:read` });
        reader.on('error', (err) => this.running && this.logger.warn(`Redis (reader): ${err.message}`));
        this.readers.push(reader);
        return this.readLoop(reader, key);
      }),
    );
    const claimEvery = Math.max(50, Math.floor(this.options.claimIdleMs / 2));
    this.claimTimer = setInterval(() => void this.keepClaimsAndClaimIdle(), claimEvery);
    this.claimTimer.unref();
  }

  /** Creates the consumer groups; reading from id 0 so requests sent before any replica ran are served. */
  private async ensureGroups(): Promise<void> {
    for (const key of this.streams()) {
      try {
        await this.writer!.xgroup('CREATE', key, this.options.service, '0', 'MKSTREAM');
      } catch (err) {
        if (!String((err as Error).message).includes('BUSYGROUP')) throw err;
      }
    }
  }

  /**
   * How long (ms) the most stuck read loop has gone without going round: 0 while each reads, fails and
   * retries (Redis away is not a stall: a restart would not help), or works through what it holds. A loop
   * whose read never returns (a half-open socket) or whose handlers all hang grows it without end.
   */
  stalledForMs(now = Date.now()): number {
    if (!this.running) return 0;
    const limit = (this.options.blockMs ?? 2000) + 1000;
    let worst = 0;
    for (const at of this.loopedAt.values()) worst = Math.max(worst, now - at - limit);
    return Math.max(0, worst);
  }

  private async readLoop(reader: Redis, key: string): Promise<void> {
    const maxInFlight = this.options.maxInFlight ?? 256;
    while (this.running) {
      this.loopedAt.set(key, Date.now());
      try {
        if (this.inFlight.size >= maxInFlight) {
          await Promise.race([...this.inFlight.values()].map((entry) => entry.work));
          continue;
        }
        const count = Math.min(this.options.batchSize ?? 64, maxInFlight - this.inFlight.size);
        const result = (await reader.xreadgroup(
          'GROUP',
          this.options.service,
          this.consumer,
          'COUNT',
          count,
          'BLOCK',
          this.options.blockMs ?? 2000,
          'STREAMS',
          key,
          '>',
        )) as [string, StreamEntry[]][] | null;
        for (const [, entries] of result ?? []) {
          for (const [entryId, fields] of entries) this.dispatch(key, entryId, fields);
        }
      } catch (err) {
        if (!this.running) break;
        const message = (err as Error).message;
        // The stream or group vanished (Redis restarted without persistence): recreate and go on.
        if (message.includes('NOGROUP')) await this.ensureGroups().catch(() => undefined);
        else this.logger.warn(`Reading ${key} failed: ${message}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  /**
   * Runs every half claim-idle period. First it resets the idle time of the entries this replica is still
   * working on (XCLAIM to itself), so a slow handler on a live replica is never taken over; then it takes
   * over entries that have been idle longer than the claim time, which only a dead replica leaves behind.
   */
  private async keepClaimsAndClaimIdle(): Promise<void> {
    if (!this.running || this.claiming) return;
    this.claiming = true;
    try {
      const mine = new Map<string, string[]>();
      for (const [entryId, { key }] of this.inFlight) mine.set(key, [...(mine.get(key) ?? []), entryId]);
      for (const [key, ids] of mine) {
        await this.writer!.xclaim(key, this.options.service, this.consumer, 0, ...ids, 'JUSTID');
      }
      for (const key of this.streams()) {
        let cursor = '0-0';
        do {
          const [next, entries] = (await this.writer!.xautoclaim(
            key,
            this.options.service,
            this.consumer,
            this.options.claimIdleMs,
            cursor,
            'COUNT',
            100,
          )) as [string, (StreamEntry | null)[]];
          for (const entry of entries) {
            if (!entry || this.inFlight.has(entry[0])) continue;
            this.logger.warn(`Claimed ${key} ${entry[0]} from a silent replica`);
            this.dispatch(key, entry[0], entry[1]);
          }
          cursor = next;
        } while (cursor !== '0-0' && this.running);
      }
    } catch (err) {
      if (this.running) this.logger.warn(`Claiming idle requests failed: ${(err as Error).message}`);
    } finally {
      this.claiming = false;
    }
  }

  private dispatch(key: string, entryId: string, fields: string[]): void {
    const work = (
      key === this.requestStream ? this.answer(key, entryId, fields) : this.deliverEvent(key, entryId, fields)
    )
      .catch((err: unknown) =>
        this.logger.error(`Processing ${key} ${entryId} failed: ${(err as Error).message}`),
      )
      .finally(() => this.inFlight.delete(entryId));
    this.inFlight.set(entryId, { key, work });
  }

  private async answer(key: string, entryId: string, fields: string[]): Promise<void> {
    const request = parseEntry<RequestEnvelope>(fields);
    if (!request || request.deadline < Date.now()) {
      // Malformed, or the caller has given up: answering would only waste work.
      await this.writer!.xack(key, this.options.service, entryId);
      return;
    }
    const reply: ReplyEnvelope = { id: request.id };
    const started = performance.now();
    const handler = this.getHandlerByPattern(request.pattern);
    // The caller's request id and trace go on: logs of this handler, and calls it makes, carry them.
    const requestId = request.requestId ?? request.id;
    const span = tracer().startSpan(
      request.pattern,
      {
        kind: SpanKind.SERVER,
        attributes: { 'rpc.system': 'forkvote-streams', 'rpc.method': request.pattern },
      },
      contextFrom(request.trace),
    );
    const handlerContext = trace.setSpan(contextFrom(request.trace), span);
    await requestContext.run({ requestId }, () =>
      context.with(handlerContext, async () => {
        if (!handler) {
          reply.err = rpcError(501, `No handler for ${request.pattern}`);
          return;
        }
        try {
          const streamsContext = new StreamsContext([request.id, request.pattern]);
          const result = await lastValueFrom(
            this.transformToObservable(await handler(request.data, streamsContext)),
            { defaultValue: null },
          );
          reply.response = result ?? null;
        } catch (err) {
          reply.err = this.toErrorBody(err);
        }
      }),
    );
    const outcome = rpcOutcome(reply.err);
    const seconds = (performance.now() - started) / 1000;
    rpcServerTimer(handler ? request.pattern : 'unknown', outcome).observe(seconds);
    // The line below is written after the handler's context has ended: it names its span itself.
    const ids = span.isRecording() ? span.spanContext() : undefined;
    endSpan(span, outcome === 'failed', outcome);
    // One line per handled request (health checks, polled by probes, only at debug).
    this.logger[request.pattern.endsWith('.health') ? 'debug' : 'log'](
      {
        ...(ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {}),
        reqId: requestId,
        pattern: request.pattern,
        outcome,
        status: (reply.err as { statusCode?: number } | undefined)?.statusCode ?? 200,
        durationMs: Math.round(seconds * 10_000) / 10,
      },
      'rpc',
    );
    // Reply first, then acknowledge: a crash between them redelivers, and the caller ignores a reply
    // whose call it has settled already. (Auto-pipelined: both leave in the batch's one write.)
    await Promise.all([
      this.writer!.spublish(request.replyTo, JSON.stringify(reply)),
      this.writer!.xack(key, this.options.service, entryId),
    ]);
  }

  private async deliverEvent(key: string, entryId: string, fields: string[]): Promise<void> {
    const event = parseEntry<EventEnvelope>(fields);
    if (event) {
      try {
        await this.handleEvent(
          event.pattern,
          { pattern: event.pattern, data: event.data },
          new StreamsContext([entryId, event.pattern]),
        );
      } catch (err) {
        this.logger.error(`Event ${event.pattern} handler failed: ${(err as Error).stack ?? err}`);
      }
    }
    await this.writer!.xack(key, this.options.service, entryId);
  }

  /** The RPC error filter has mapped a handler's error already; anything that escaped it is mapped the same. */
  private toErrorBody(err: unknown): RpcErrorBody {
    return isRpcErrorBody(err) ? err : this.errors.toBody(err);
  }
}

function parseEntry<T>(fields: string[]): T | null {
  const index = fields.indexOf('m');
  if (index === -1) return null;
  try {
    return JSON.parse(fields[index + 1]) as T;
  } catch {
    return null;
  }
}
