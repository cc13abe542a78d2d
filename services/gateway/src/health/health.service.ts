import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  HEALTH_PATTERNS,
  isRpcErrorBody,
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

@Injectable()
export class HealthService implements OnApplicationShutdown {
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
