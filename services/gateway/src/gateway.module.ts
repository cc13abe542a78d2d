import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { PlatformModule } from '@forkvote/platform';
import { GatewayExceptionFilter } from './common/rpc-exception.filter';
import { GatewayConfig } from './gateway.config';
import { HealthController } from './health/health.controller';
import { HealthService } from './health/health.service';

@Module({
  imports: [PlatformModule.forGateway(GatewayConfig)],
  controllers: [HealthController],
  providers: [HealthService, { provide: APP_FILTER, useClass: GatewayExceptionFilter }],
})
export class GatewayModule {}
