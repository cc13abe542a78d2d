import type { AnswerOf, Pattern, RequestOf } from '@forkvote/contracts';
import { ClientProxy } from '@nestjs/microservices';
import { firstValueFrom } from 'rxjs';
import { PlatformConfig } from '../config';
import { redisTargetOf } from '../redis';
import { StreamsClient } from './streams.client';
import { StreamsServer } from './streams.server';

export * from './streams-keys';
export * from './streams.client';
export * from './streams.server';

/**
 * The one place that decides how processes talk to each other. Every service's server and every caller's
 * client come from here, so swapping the transport touches this file only.
 */
export function createServiceServer(service: string, config: PlatformConfig): StreamsServer {
  return new StreamsServer({
    service,
    redis: redisTargetOf(config),
    prefix: config.REDIS_PREFIX,
    claimIdleMs: config.RPC_CLAIM_IDLE_MS,
    maxLen: config.RPC_STREAM_MAXLEN,
  });
}

export function createServiceClient(config: PlatformConfig): StreamsClient {
  return new StreamsClient({
    redis: redisTargetOf(config),
    prefix: config.REDIS_PREFIX,
    claimIdleMs: config.RPC_CLAIM_IDLE_MS,
    maxLen: config.RPC_STREAM_MAXLEN,
    timeoutMs: config.RPC_TIMEOUT_MS,
  });
}

/**
 * Sends a request to the service that owns `pattern` and resolves with its single answer. The pattern
 * names its request and answer types (libs/contracts `pattern<Request, Answer>`), so both are checked.
 */
export function callService<P extends Pattern<never, unknown>>(
  client: ClientProxy,
  pattern: P,
  data: RequestOf<P>,
): Promise<AnswerOf<P>> {
  if (client instanceof StreamsClient) return client.request<AnswerOf<P>>(pattern, data);
  return firstValueFrom(client.send<AnswerOf<P>>(pattern, data));
}
