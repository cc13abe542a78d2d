import { Body, Controller, Delete, Get, Inject, Param, Patch, Query, UseGuards } from '@nestjs/common';
import { ApiCall, ApiQueryOf, SESSION } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import {
  AUTH,
  BILLING,
  HistoryPage,
  HistoryQueryDto,
  InvitationParams,
  InvitationsAnswer,
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

  @Get('invitations')
  @ApiCall(
    'Open rooms the signed-in user was invited to by a saved group, newest first.',
    'InvitationsAnswer',
  )
  invitations(@Session() session: SessionClaims): Promise<InvitationsAnswer> {
    return callService(this.services, ROOMS.invitations, { userId: session.sub });
  }

  @Delete('invitations/:waitingRoomId')
  @ApiCall('Dismisses an invitation (the room stays open to join with its code).', 'Message')
  @ApiParam({ name: 'waitingRoomId', example: 'ABC123' })
  async dismissInvitation(@Session() session: SessionClaims, @Param() params: InvitationParams) {
    await callService(this.services, ROOMS.dismissInvitation, {
      userId: session.sub,
      waitingRoomId: params.waitingRoomId,
    });
    return { message: 'Invitation dismissed.' };
  }

  @Get('history')
  @ApiCall('The sessions the signed-in user took part in, newest first, 10 a page.', 'HistoryPage')
  @ApiQueryOf(HistoryQueryDto)
  history(@Session() session: SessionClaims, @Query() query: HistoryQueryDto): Promise<HistoryPage> {
    return callService(this.services, ROOMS.history, { userId: session.sub, query });
  }
}
