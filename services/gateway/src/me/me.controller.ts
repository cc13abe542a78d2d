import { Body, Controller, Get, Inject, Patch, UseGuards } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import { AUTH, BILLING, SessionClaims, StripeInformation, UpdateMeDto, WireUser } from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import { Session, SessionGuard } from '../auth/session';

@ApiTags('me')
@Controller('me')
@UseGuards(SessionGuard)
export class MeController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  @Get()
  getMe(@Session() session: SessionClaims): Promise<WireUser> {
    return callService(this.services, AUTH.getMe, { userId: session.sub });
  }

  @Patch()
  updateMe(@Session() session: SessionClaims, @Body() body: UpdateMeDto): Promise<WireUser> {
    return callService(this.services, AUTH.updateMe, { userId: session.sub, body });
  }

  @Get('stripe')
  stripe(@Session() session: SessionClaims): Promise<StripeInformation> {
    return callService(this.services, BILLING.stripeInformation, { userId: session.sub });
  }
}
