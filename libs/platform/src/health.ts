import { Controller, Inject, Optional, Type } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { DependencyHealth, ServiceHealthReport } from '@forkvote/contracts';
import Redis from 'ioredis';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { REDIS } from './redis';

/** Runs a probe against a deadline, so a hung dependency reports `down` instead of hanging the check. */
export async function checkDependency(
  probe: () => Promise<unknown>,
  timeoutMs = 1000,
): Promise<DependencyHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up', latencyMs: elapsed(started) };
  } catch (err) {
    return { status: 'down', latencyMs: elapsed(started), error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 100) / 100;
}

export function instanceName(): string {
  return process.env.INSTANCE_ID || `${hostname()}:${process.pid}`;
}

/** Optional provider: a service's mode for operators (billing's 'test mode'), shown in health answers. */
export const SERVICE_MODE = Symbol('SERVICE_MODE');

/** The `<service>.health` handler every service registers: its own view of its database and Redis. */
export function serviceHealthController(service: string, pattern: string): Type<unknown> {
  @Controller()
  class ServiceHealthController {
    constructor(
      @Inject(DataSource) private readonly dataSource: DataSource,
      @Inject(REDIS) private readonly redis: Redis,
      @Optional() @Inject(SERVICE_MODE) private readonly mode?: string,
    ) {}

    @MessagePattern(pattern)
    async health(): Promise<ServiceHealthReport> {
      const [database, redis] = await Promise.all([
        checkDependency(() => this.dataSource.query('SELECT 1')),
        checkDependency(() => this.redis.ping()),
      ]);
      return {
        service,
        instance: instanceName(),
        database,
        redis,
        ...(this.mode ? { mode: this.mode } : {}),
      };
    }
  }
  return ServiceHealthController;
}
