import { Body, Controller, Get, Inject, Patch, Query, UseGuards } from '@nestjs/common';
import { ApiCall, ApiQueryOf, SESSION } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import {
  AUTH,
  BILLING,
  HistoryPage,
  HistoryQueryDto,
  ROOMS,
  SessionClaims,
  StripeInformation,
  UpdateMeDto,
  WireUser,
} from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import { Session, SessionGuard } from '../auth/session';

@ApiTags('me')
@Controller('me')
@SESSION()
@UseGuards(SessionGuard)
export class MeController {
  constructor(@Inject(SERVICE_CLIENT) private readonly services: ClientProxy) {}

  @Get()
  @ApiCall('The signed-in user.', 'WireUser')
  getMe(@Session() session: SessionClaims): Promise<WireUser> {
    return callService(this.services, AUTH.getMe, { userId: session.sub });
  }

  @Patch()
  @ApiCall('Changes name, default zip code, preferences and the feedback choice.', 'WireUser')
  updateMe(@Session() session: SessionClaims, @Body() body: UpdateMeDto): Promise<WireUser> {
    return callService(this.services, AUTH.updateMe, { userId: session.sub, body });
  }

  @Get('stripe')
  @ApiCall('Billing information: the subscription and the customer portal address.', 'StripeInformation')
  stripe(@Session() session: SessionClaims): Promise<StripeInformation> {
    return callService(this.services, BILLING.stripeInformation, { userId: session.sub });
  }

  @Get('history')
  @ApiCall('The sessions the signed-in user took part in, newest first, 10 a page.', 'HistoryPage')
  @ApiQueryOf(HistoryQueryDto)
  history(@Session() session: SessionClaims, @Query() query: HistoryQueryDto): Promise<HistoryPage> {
    return callService(this.services, ROOMS.history, { userId: session.sub, query });
  }
}
