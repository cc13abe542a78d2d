import { Logger } from '@nestjs/common';
import { ClientProxy, ReadPacket, WritePacket } from '@nestjs/microservices';
import { ERROR_CODES, rpcError, serviceOfPattern } from '@forkvote/contracts';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ReplyEnvelope, RequestEnvelope, streamKeys, StreamsTransportOptions } from './streams-keys';

export interface StreamsClientOptions extends StreamsTransportOptions {
  /** How long `send` waits for an answer before failing with a 503 error body. */
  timeoutMs: number;
}

interface PendingCall {
  callback: (packet: WritePacket) => void;
  timer: NodeJS.Timeout;
}

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

  constructor(private readonly options: StreamsClientOptions) {
    super();
    this.replyChannel = streamKeys.replies(options.prefix, this.clientId);
  }

  connect(): Promise<void> {
    this.connecting ??= this.openConnections().catch((err: unknown) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  private async openConnections(): Promise<void> {
    const redisOptions = { maxRetriesPerRequest: 2, connectionName: `client:${this.clientId}` };
    this.writer = new Redis(this.options.redisUrl, redisOptions);
    this.subscriber = new Redis(this.options.redisUrl, redisOptions);
    this.writer.on('error', (err) => this.logger.warn(`Redis (client): ${err.message}`));
    this.subscriber.on('error', (err) => this.logger.warn(`Redis (replies): ${err.message}`));
    this.subscriber.on('message', (_channel: string, raw: string) => this.onReply(raw));
    await this.subscriber.subscribe(this.replyChannel);
  }

  async close(): Promise<void> {
    for (const [id, call] of this.pending) {
      clearTimeout(call.timer);
      call.callback({
        err: rpcError(503, 'The service client was closed', ERROR_CODES.serviceTimeout),
        isDisposed: true,
      });
      this.pending.delete(id);
    }
    this.connecting = undefined;
    await Promise.allSettled([this.writer?.quit(), this.subscriber?.quit()]);
  }

  unwrap<T>(): T {
    return this.writer as T;
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const id = randomUUID();
    const pattern = this.normalizePattern(packet.pattern);
    const service = serviceOfPattern(pattern);
    const fail = (message: string) => {
      const call = this.pending.get(id);
      if (!call) return;
      clearTimeout(call.timer);
      this.pending.delete(id);
      callback({ err: rpcError(503, message, ERROR_CODES.serviceTimeout), isDisposed: true });
    };
    const timer = setTimeout(
      () => fail(`The ${service} service did not answer in time. Please try again.`),
      this.options.timeoutMs,
    );
    this.pending.set(id, { callback, timer });
    const envelope: RequestEnvelope = {
      id,
      pattern,
      data: packet.data,
      replyTo: this.replyChannel,
      deadline: Date.now() + this.options.timeoutMs,
    };
    this.writer!.xadd(
      streamKeys.requests(this.options.prefix, service),
      'MAXLEN',
      '~',
      this.options.maxLen,
      '*',
      'm',
      JSON.stringify(envelope),
    ).catch((err: Error) => fail(`The ${service} service cannot be reached: ${err.message}`));
    return () => {
      const call = this.pending.get(id);
      if (call) clearTimeout(call.timer);
      this.pending.delete(id);
    };
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
    const call = this.pending.get(reply.id);
    if (!call) return; // Timed out or unsubscribed already.
    clearTimeout(call.timer);
    this.pending.delete(reply.id);
    call.callback(
      reply.err !== undefined
        ? { err: reply.err, isDisposed: true }
        : { response: reply.response, isDisposed: true },
    );
  }
}
