import { Logger } from '@nestjs/common';
import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { ERROR_CODES, rpcError, serviceOfPattern } from '@forkvote/contracts';
import type Redis from 'ioredis';
import { createRedis } from '../redis';
import { randomUUID } from 'node:crypto';
import { rpcClientTimer, rpcOutcome } from '../metrics';
import { currentRequestId } from '../request-context';
import { context, endSpan, SpanKind, trace, traceHeaders, tracer } from '../tracing';
import { ReplyEnvelope, RequestEnvelope, streamKeys, StreamsTransportOptions } from './streams-keys';

export interface StreamsClientOptions extends StreamsTransportOptions {
  /** How long `send` waits for an answer before failing with a 503 error body. */
  timeoutMs: number;
}

interface PendingCall {
  /** Taken out when the call settles (see `settle`). */
  callback: ((packet: WritePacket) => void) | undefined;
  /** When the call fails with a 503 unless answered (epoch ms). */
  deadline: number;
  service: string;
}

const closedError = () => rpcError(503, 'The service client was closed', ERROR_CODES.serviceTimeout);

/** A request waiting in the outbox. */
interface OutgoingRequest {
  id: string;
  stream: string;
  message: string;
}

/**
 * Requests leave in one socket write when this many are waiting, or when the event-loop turn that made
 * them ends, whichever comes first (see `publish`).
 */
export const REQUESTS_PER_WRITE = 8;

/**
 * The caller's side of the Redis Streams transport. `send(pattern, data)` appends the request to the
 * stream of the service named by the pattern's prefix and waits for the reply on this process's own
 * reply channel; `emit` appends to the event's stream, read by every interested service's group.
 */
export class StreamsClient extends ClientProxy {
  private readonly logger = new Logger(StreamsClient.name);
  private readonly clientId = randomUUID();
  private readonly replyChannel: string;
  private readonly pending = new Map<string, PendingCall>();
  private writer?: Redis;
  private subscriber?: Redis;
  private connecting?: Promise<void>;
  /** Set by `close`: a call made or still connecting afterwards fails with the closed client's 503. */
  private closed = false;
  /** Requests made but not yet written (at most REQUESTS_PER_WRITE - 1 between writes). */
  private outbox: OutgoingRequest[] = [];
  /** One timer for every pending call's deadline, instead of one timer per call. */
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly options: StreamsClientOptions) {
    super();
    this.replyChannel = streamKeys.replies(options.prefix, this.clientId);
  }

  /**
   * Opens the writer and the reply subscription once. Whatever stops that (Redis down, a cluster with no
   * subscriber for the reply channel's slot, `close` while it subscribes) rejects with the transport's own
   * 503 body, never the Redis client's error: a caller's filter answers that as the service being away.
   */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    this.connecting ??= this.openConnections().catch((err: unknown) => {
      this.connecting = undefined;
      if (this.closed) throw closedError();
      this.logger.warn(`Redis (client) could not subscribe to replies: ${(err as Error).message}`);
      throw rpcError(503, 'The services cannot be reached. Please try again.', ERROR_CODES.serviceTimeout);
    });
    return this.connecting;
  }

  private async openConnections(): Promise<void> {
    const target = this.options.redis;
    const redisOptions = { maxRetriesPerRequest: 2, connectionName: `client:${this.clientId}` };
    // Requests are written by `flushOutbox`, as explicit pipelines: not auto-pipelining, which sends a
    // turn's commands a turn later and holds them until its previous write is answered.
    this.writer = createRedis(target, redisOptions);
    this.subscriber = createRedis(target, redisOptions);
    this.writer.on('error', (err) => this.logger.warn(`Redis (client): ${err.message}`));
    this.subscriber.on('error', (err) => this.logger.warn(`Redis (replies): ${err.message}`));
    this.subscriber.on('smessage', (_channel: string, raw: string) => this.onReply(raw));
    await this.subscriber.ssubscribe(this.replyChannel);
    const sweepEvery = Math.max(10, Math.min(100, Math.floor(this.options.timeoutMs / 4)));
    this.sweeper = setInterval(() => this.failOverdue(), sweepEvery);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const id of [...this.pending.keys()]) this.settle(id, { err: closedError(), isDisposed: true });
    this.outbox = [];
    this.connecting = undefined;
    await Promise.allSettled([this.writer?.quit(), this.subscriber?.quit()]);
  }

  unwrap<T>(): T {
    return this.writer as T;
  }

  /**
   * `send` as a promise, without the Observable pipeline Nest builds around every call: what
   * `callService` uses. Rejects with the service's error body, as `send` would.
   */
  async request<T>(pattern: string, data: unknown): Promise<T> {
    await this.connect();
    return new Promise<T>((resolve, reject) => {
      this.publish({ pattern, data }, ({ err, response }) =>
        err ? reject(this.serializeError(err)) : resolve(this.serializeResponse(response) as T),
      );
    });
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    if (this.closed) {
      callback({ err: closedError(), isDisposed: true });
      return () => undefined;
    }
    const id = randomUUID();
    const pattern = this.normalizePattern(packet.pattern);
    const service = serviceOfPattern(pattern);
    const deadline = Date.now() + this.options.timeoutMs;
    const sent = performance.now();
    const span = tracer().startSpan(pattern, {
      kind: SpanKind.CLIENT,
      attributes: { 'rpc.system': 'forkvote-streams', 'rpc.method': pattern, 'rpc.service': service },
    });
    const observed = (answer: WritePacket) => {
      const outcome = rpcOutcome(answer.err);
      rpcClientTimer(pattern, outcome).observe((performance.now() - sent) / 1000);
      endSpan(span, outcome === 'failed' || outcome === 'timeout', outcome);
      callback(answer);
    };
    this.pending.set(id, { callback: observed, deadline, service });
    // The request id and trace of the code making the call travel with it (see request-context.ts).
    const requestId = currentRequestId();
    const traceContext = traceHeaders(trace.setSpan(context.active(), span));
    const envelope: RequestEnvelope = {
      id,
      pattern,
      data: packet.data,
      replyTo: this.replyChannel,
      deadline,
      ...(requestId ? { requestId } : {}),
      ...(traceContext ? { trace: traceContext } : {}),
    };
    this.outbox.push({
      id,
      stream: streamKeys.requests(this.options.prefix, service),
      message: JSON.stringify(envelope),
    });
    // A gateway reads a burst of HTTP requests in one turn, one socket at a time. Written when the turn
    // ended, the first of them waited for the last to be handled: a sixth of a vote's latency through the
    // gateway, 40 in flight. Written one at a time, each request cost the gateway and Redis a write and a
    // read of its own. Every REQUESTS_PER_WRITE requests, or at the turn's end, keeps the first gain at
    // little of the second's cost; 8 cost the gateway less than 4 and waited no longer (docs/adr/0010).
    if (this.outbox.length >= REQUESTS_PER_WRITE) this.flushOutbox();
    else if (this.outbox.length === 1) setImmediate(() => this.flushOutbox());
    return () => this.settle(id);
  }

  /** Writes the waiting requests: one pipeline per stream (on a cluster, a pipeline's keys share a slot). */
  private flushOutbox(): void {
    const batch = this.outbox;
    if (batch.length === 0) return;
    this.outbox = [];
    const byStream = new Map<string, OutgoingRequest[]>();
    for (const request of batch) {
      const requests = byStream.get(request.stream);
      if (requests) requests.push(request);
      else byStream.set(request.stream, [request]);
    }
    for (const [stream, requests] of byStream) {
      const pipeline = this.writer!.pipeline();
      for (const request of requests) {
        pipeline.xadd(stream, 'MAXLEN', '~', this.options.maxLen, '*', 'm', request.message);
      }
      pipeline.exec().then(
        (results) => results?.forEach(([err], i) => err && this.refused([requests[i]], err)),
        (err: Error) => this.refused(requests, err),
      );
    }
  }

  /**
   * Fails requests Redis would not take with a 503 the caller can show to a person. What Redis said (a
   * retry limit, a wrong key type, a cluster moving slots) is for operators: it goes to the log, once per
   * refused write (once per request when Redis refuses only some of a pipeline's).
   */
  private refused(requests: OutgoingRequest[], err: Error): void {
    this.logger.warn(`Redis refused ${requests.length} request(s) to ${requests[0].stream}: ${err.message}`);
    for (const request of requests) {
      this.settleWithError(
        request.id,
        (service) => `The ${service} service cannot be reached. Please try again.`,
      );
    }
  }

  /** Fails the calls whose deadline has passed with the 503 the caller shows. */
  private failOverdue(): void {
    const now = Date.now();
    for (const [id, call] of this.pending) {
      if (call.deadline <= now) {
        this.settleWithError(
          id,
          (service) => `The ${service} service did not answer in time. Please try again.`,
        );
      }
    }
  }

  private settleWithError(id: string, message: (service: string) => string): void {
    const service = this.pending.get(id)?.service;
    if (service === undefined) return;
    this.settle(id, { err: rpcError(503, message(service), ERROR_CODES.serviceTimeout), isDisposed: true });
  }

  /**
   * Takes a call out of `pending` and answers it with `packet` (or drops it, without one). The entry lets go
   * of its callback too. A Map that calls keep coming into and going out of makes a new hash table every few
   * dozen calls, and a replaced table still points at the entries it held; once the Map is old, so are its
   * tables, and a young collection treats their pointers as live until the next full collection. Through
   * its callback, such an entry kept the caller's promise and the answer it settled with, so every call's
   * answer reached the old generation and was only freed by a full collection.
   */
  private settle(id: string, packet?: WritePacket): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    const callback = call.callback;
    call.callback = undefined;
    if (packet) callback?.(packet);
  }

  protected async dispatchEvent<T = unknown>(packet: ReadPacket): Promise<T> {
    const pattern = this.normalizePattern(packet.pattern);
    await this.writer!.xadd(
      streamKeys.events(this.options.prefix, pattern),
      'MAXLEN',
      '~',
      this.options.maxLen,
      '*',
      'm',
      JSON.stringify({ pattern, data: packet.data }),
    );
    return undefined as T;
  }

  private onReply(raw: string): void {
    let reply: ReplyEnvelope;
    try {
      reply = JSON.parse(raw) as ReplyEnvelope;
    } catch {
      return;
    }
    // Nothing happens if the call timed out or was unsubscribed already.
    this.settle(
      reply.id,
      reply.err !== undefined
        ? { err: reply.err, isDisposed: true }
        : { response: reply.response, isDisposed: true },
    );
  }
}
