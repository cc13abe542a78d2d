import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  HEALTH_PATTERNS,
  isRpcErrorBody,
  PUBLIC_HEALTH_PARTS,
  PublicHealth,
  PublicHealthPart,
  SERVICE_NAMES,
  ServiceHealth,
  ServiceHealthReport,
  SystemHealth,
} from '@forkvote/contracts';
import { checkDependency, elapsed, REDIS, SERVICE_CLIENT } from '@forkvote/platform';
import Redis from 'ioredis';
import { Pool } from 'pg';
import { timeout } from 'rxjs';
import { firstValueFrom } from 'rxjs';
import { GatewayConfig } from '../gateway.config';

/** Which part of the product a process or store carries, as the public answer names it. */
const PART_OF: Record<string, PublicHealthPart> = {
  auth: 'accounts',
  rooms: 'sessions',
  billing: 'payments',
  places: 'places',
  database: 'saving',
  redis: 'live',
};

/** The public answer made from the operators' report: up or degraded per part, in the product's words. */
export function publicHealth(report: SystemHealth): PublicHealth {
  const down = new Set<PublicHealthPart>();
  for (const service of report.services) if (service.status !== 'up') down.add(PART_OF[service.service]);
  if (report.gateway.database.status !== 'up') down.add('saving');
  if (report.gateway.redis.status !== 'up') down.add('live');
  const parts = (Object.keys(PUBLIC_HEALTH_PARTS) as PublicHealthPart[]).map((part) => ({
    part,
    label: PUBLIC_HEALTH_PARTS[part],
    status: down.has(part) ? ('degraded' as const) : ('up' as const),
  }));
  const degraded = parts.filter((p) => p.status === 'degraded').map((p) => p.label);
  return {
    status: degraded.length === 0 ? 'ok' : 'degraded',
    message:
      degraded.length === 0
        ? 'All systems operational'
        : `Some of ForkVote is not answering right now: ${degraded.join(', ')}.`,
    checkedAt: report.checkedAt,
    parts,
  };
}

@Injectable()
export class HealthService implements OnApplicationShutdown {
  /** The last public answer and when it was asked for; shared by every caller within HEALTH_CACHE_MS. */
  private cached?: { at: number; answer: Promise<PublicHealth> };

  /** The gateway owns no schema; a one-connection pool is enough to tell whether PostgreSQL answers. */
  private readonly pool: Pool;

  constructor(
    private readonly config: GatewayConfig,
    @Inject(SERVICE_CLIENT) private readonly client: ClientProxy,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.pool = new Pool({ connectionString: config.DATABASE_URL, max: 1, connectionTimeoutMillis: 2000 });
    this.pool.on('error', () => undefined);
  }

  checkDatabase() {
    return checkDependency(() => this.pool.query('SELECT 1'), this.config.HEALTH_TIMEOUT_MS);
  }

  /**
   * The public answer, computed at most once per HEALTH_CACHE_MS by this gateway however many tabs poll it:
   * a full report asks every service, the database and Redis.
   */
  publicCheck(): Promise<PublicHealth> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.config.HEALTH_CACHE_MS) {
      this.cached = { at: now, answer: this.check().then(publicHealth) };
    }
    return this.cached.answer;
  }

  /** The operators' report: every service with its instance, latency, mode and error. */
  async check(): Promise<SystemHealth> {
    const [database, redis, ...services] = await Promise.all([
      checkDependency(() => this.pool.query('SELECT 1'), this.config.HEALTH_TIMEOUT_MS),
      checkDependency(() => this.redis.ping(), this.config.HEALTH_TIMEOUT_MS),
      ...SERVICE_NAMES.map((name) => this.checkService(name)),
    ]);
    const down = [
      ...services.filter((s) => s.status === 'down').map((s) => `${s.service} service`),
      ...(database.status === 'down' ? ['database'] : []),
      ...(redis.status === 'down' ? ['redis'] : []),
    ];
    return {
      status: down.length === 0 ? 'ok' : 'unavailable',
      message: down.length === 0 ? 'All systems operational' : `Unavailable: ${down.join(', ')}`,
      checkedAt: new Date().toISOString(),
      gateway: { database, redis },
      services,
    };
  }

  private async checkService(service: (typeof SERVICE_NAMES)[number]): Promise<ServiceHealth> {
    const started = performance.now();
    try {
      const report = await firstValueFrom(
        this.client
          .send<ServiceHealthReport>(HEALTH_PATTERNS[service], {})
          .pipe(timeout({ first: this.config.HEALTH_TIMEOUT_MS })),
      );
      const healthy = report.database.status === 'up' && report.redis.status === 'up';
      return {
        service,
        status: healthy ? 'up' : 'down',
        latencyMs: elapsed(started),
        instance: report.instance,
        database: report.database,
        redis: report.redis,
        ...(report.mode ? { mode: report.mode } : {}),
        ...(healthy ? {} : { error: 'A dependency of the service is down' }),
      };
    } catch (err) {
      const error = isRpcErrorBody(err)
        ? err.message
        : (err as Error).name === 'TimeoutError'
          ? `No answer within ${this.config.HEALTH_TIMEOUT_MS} ms`
          : String((err as Error).message ?? err);
      return { service, status: 'down', latencyMs: elapsed(started), error };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
