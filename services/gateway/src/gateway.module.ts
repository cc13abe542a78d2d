import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { PlatformModule } from '@forkvote/platform';
import { AccountAnswers } from './auth/account-answers';
import { AuthController } from './auth/auth.controller';
import { LoginThrottle } from './auth/login-throttle';
import { SessionStrategy } from './auth/session';
import { BillingController } from './billing/billing.controller';
import { RateLimitModule } from './common/rate-limit';
import { GatewayExceptionFilter } from './common/rpc-exception.filter';
import { GatewayValidationPipe } from './common/validation';
import { DevController } from './dev/dev.controller';
import { FeedbackController } from './feedback/feedback.controller';
import { GatewayConfig } from './gateway.config';
import { HealthController } from './health/health.controller';
import { HealthService } from './health/health.service';
import { ShutdownState } from './health/shutdown-state';
import { MeController } from './me/me.controller';
import { PlacesController } from './places/places.controller';
import { PublicConfigController } from './public-config.controller';
import { RoomEventsHub } from './waiting-room/room-events.hub';
import { PlansController } from './plans/plans.controller';
import { GroupsController } from './groups/groups.controller';
import { WaitingRoomController } from './waiting-room/waiting-room.controller';

// The development outbox reader never exists in production, whatever auth's mail settings are.
const production = process.env.NODE_ENV === 'production';

@Module({
  imports: [PlatformModule.forGateway(GatewayConfig), PassportModule, RateLimitModule],
  controllers: [
    HealthController,
    PublicConfigController,
    AuthController,
    MeController,
    FeedbackController,
    BillingController,
    PlacesController,
    WaitingRoomController,
    PlansController,
    GroupsController,
    ...(production ? [] : [DevController]),
  ],
  providers: [
    HealthService,
    ShutdownState,
    SessionStrategy,
    LoginThrottle,
    AccountAnswers,
    RoomEventsHub,
    { provide: APP_FILTER, useClass: GatewayExceptionFilter },
    { provide: APP_PIPE, useValue: new GatewayValidationPipe() },
  ],
})
export class GatewayModule {}
