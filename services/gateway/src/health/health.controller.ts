import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { SystemHealth } from '@forkvote/contracts';
import type { Response } from 'express';
import { checkDependency, REDIS } from '@forkvote/platform';
import Redis from 'ioredis';
import { HealthService } from './health.service';
import { ShutdownState } from './shutdown-state';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly shutdown: ShutdownState,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Liveness: the process answers. Nothing else, so a Redis hiccup never gets pods restarted. */
  @Get('live')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  /** Readiness: this gateway can serve (PostgreSQL and Redis answer) and is not shutting down. */
  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response) {
    const [database, redis] = await Promise.all([
      this.health.checkDatabase(),
      checkDependency(() => this.redis.ping()),
    ]);
    const ready = !this.shutdown.draining && database.status === 'up' && redis.status === 'up';
    res.status(ready ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return { status: ready ? 'ready' : 'not ready', draining: this.shutdown.draining, database, redis };
  }

  @Get()
  @ApiOkResponse({ description: 'Every service, the database and Redis answer.' })
  @ApiServiceUnavailableResponse({ description: 'Something is down; `message` names it.' })
  async check(@Res({ passthrough: true }) res: Response): Promise<SystemHealth> {
    const report = await this.health.check();
    res.status(report.status === 'ok' ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return report;
  }
}
