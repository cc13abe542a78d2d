import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import Redis, { Cluster, RedisOptions } from 'ioredis';
import { PlatformConfig } from './config';

/** Injection token of the process's shared ioredis command connection. */
export const REDIS = Symbol('REDIS');

/** Where Redis is: one server's URL, or (cluster) the URLs of some of a Redis Cluster's nodes, comma-separated. */
export interface RedisTarget {
  url: string;
  cluster: boolean;
}

export const redisTargetOf = (config: Pick<PlatformConfig, 'REDIS_URL' | 'REDIS_CLUSTER'>): RedisTarget => ({
  url: config.REDIS_URL,
  cluster: config.REDIS_CLUSTER === 'true',
});

/**
 * A connection to Redis, or to Redis Cluster when the target says so. Every connection of every process is
 * made here. A cluster client answers the same commands, routed by each key's slot, so callers keep the
 * `Redis` type: multi-key commands and transactions must keep their keys in one slot (a `{hash tag}`), and
 * pub/sub that must scale with the cluster uses the sharded commands (SSUBSCRIBE, SPUBLISH), which a single
 * Redis 7 answers too.
 */
export function createRedis(target: RedisTarget, options: RedisOptions & { connectionName: string }): Redis {
  if (!target.cluster) return new Redis(target.url, options);
  const urls = target.url.split(',').map((url) => new URL(url));
  const { enableAutoPipelining, enableOfflineQueue: _, ...redisOptions } = options;
  const [first] = urls;
  const cluster = new Cluster(
    urls.map((url) => ({ host: url.hostname, port: Number(url.port || 6379) })),
    {
      enableAutoPipelining,
      // Auto-pipelining groups a turn's commands by the slot of their first argument; these commands'
      // first argument is no key, so they are sent on their own (and routed by their real keys).
      autoPipeliningIgnoredCommands: ['eval', 'evalsha', 'xgroup', 'xreadgroup', 'xinfo'],
      // Each shard's channels are received over a connection to that shard (SSUBSCRIBE).
      shardedSubscribers: true,
      redisOptions: {
        ...redisOptions,
        username: decodeURIComponent(first.username) || undefined,
        password: decodeURIComponent(first.password) || undefined,
        ...(first.protocol === 'rediss:' ? { tls: {} } : {}),
      },
    },
  );
  return cluster as unknown as Redis;
}

@Injectable()
class RedisCloser implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [PlatformConfig],
      useFactory: (config: PlatformConfig) =>
        createRedis(redisTargetOf(config), {
          maxRetriesPerRequest: 2,
          connectionName: 'forkvote',
          // Commands issued in the same tick leave in one socket write: profiling showed loopback writes,
          // one per command, as the largest single cost of a busy service.
          enableAutoPipelining: true,
        }),
    },
    RedisCloser,
  ],
  exports: [REDIS],
})
export class RedisModule {}
