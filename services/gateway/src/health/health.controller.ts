import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import { ApiCall } from '../api-docs';
import { ApiServiceUnavailableResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { PublicHealth } from '@forkvote/contracts';
import type { Response } from 'express';
import { checkDependency, REDIS } from '@forkvote/platform';
import Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { HealthService } from './health.service';
import { ShutdownState } from './shutdown-state';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthService,
    private readonly shutdown: ShutdownState,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: GatewayConfig,
  ) {}

  /** Liveness: the process answers. Nothing else, so a Redis hiccup never gets pods restarted. */
  @Get('live')
  @ApiCall('Liveness: the process answers.', 'Status')
  @HttpCode(200)
  live() {
    return { status: 'ok' };
  }

  /**
   * Readiness: this gateway can serve (Redis, which every call, session check and event stream goes
   * through, answers) and is not shutting down. PostgreSQL is not asked: the gateway uses it only for the
   * health report, and a database blip must not take every gateway, static pages and streams included, out
   * of the Service. Redis is asked within HEALTH_TIMEOUT_MS, under the probe's timeout.
   */
  @Get('ready')
  @ApiCall('Readiness: Redis answers and the gateway is not draining.', 'Status')
  async ready(@Res({ passthrough: true }) res: Response) {
    const redis = await checkDependency(() => this.redis.ping(), this.config.HEALTH_TIMEOUT_MS);
    const ready = !this.shutdown.draining && redis.status === 'up';
    res.status(ready ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return { status: ready ? 'ready' : 'not ready', draining: this.shutdown.draining, redis };
  }

  /** Public: up or degraded per part of the product; the operators' detail is on the metrics listener. */
  @Get()
  @ApiCall('Each part of ForkVote, up or degraded (at most a few seconds old).', 'PublicHealth')
  @ApiServiceUnavailableResponse({
    description: 'A part is degraded; `message` names it.',
    schema: { $ref: getSchemaPath('PublicHealth') },
  })
  async check(@Res({ passthrough: true }) res: Response): Promise<PublicHealth> {
    const report = await this.health.publicCheck();
    res.status(report.status === 'ok' ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return report;
  }
}
