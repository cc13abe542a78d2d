import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import {
  CreateRoomAnswer,
  GroupMemberParams,
  GroupParams,
  GroupsAnswer,
  ROOMS,
  SavedGroup,
  SaveGroupDto,
  SessionClaims,
} from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request, Response } from 'express';
import { ApiCall, SESSION } from '../api-docs';
import { Session, SessionGuard } from '../auth/session';
import { GatewayConfig } from '../gateway.config';
import { idempotencyKey } from '../waiting-room/waiting-room.controller';
import { setRoomCookie } from '../waiting-room/room-identity';

/** Saved groups (docs/groups.md): signed-in users only; rooms owns them. */
@ApiTags('groups')
@Controller('groups')
@SESSION()
@UseGuards(SessionGuard)
export class GroupsController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly config: GatewayConfig,
  ) {}

  @Get()
  @ApiCall('The groups the signed-in user saved or belongs to, newest first.', 'GroupsAnswer')
  list(@Session() session: SessionClaims): Promise<GroupsAnswer> {
    return callService(this.services, ROOMS.groups, { userId: session.sub });
  }

  @Post()
  @ApiCall('Saves the people of a session the caller hosted as a named group.', 'SavedGroup')
  @HttpCode(200)
  save(@Session() session: SessionClaims, @Body() body: SaveGroupDto): Promise<SavedGroup> {
    return callService(this.services, ROOMS.saveGroup, { userId: session.sub, body });
  }

  @Delete(':groupId')
  @ApiCall('Deletes a group (its owner only).', 'Message')
  @ApiParam({ name: 'groupId', format: 'uuid' })
  async remove(@Session() session: SessionClaims, @Param() params: GroupParams) {
    await callService(this.services, ROOMS.deleteGroup, { userId: session.sub, groupId: params.groupId });
    return { message: 'Group deleted.' };
  }

  /** The owner removes someone; a member removes themselves (leaves). */
  @Delete(':groupId/members/:memberId')
  @ApiCall('Removes a member (the owner), or leaves the group (the member themselves).', 'SavedGroup')
  @ApiParam({ name: 'groupId', format: 'uuid' })
  @ApiParam({ name: 'memberId', type: 'integer' })
  removeMember(@Session() session: SessionClaims, @Param() params: GroupMemberParams) {
    return callService(this.services, ROOMS.removeGroupMember, {
      userId: session.sub,
      groupId: params.groupId,
      memberId: params.memberId,
    });
  }

  @Post(':groupId/start')
  @ApiCall(
    'Opens a waiting room with the group’s settings and invites its registered members (the owner; hosts only).',
    'CreateRoomAnswer',
  )
  @ApiParam({ name: 'groupId', format: 'uuid' })
  @HttpCode(200)
  async start(
    @Session() session: SessionClaims,
    @Param() params: GroupParams,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreateRoomAnswer> {
    const { memberToken, ...answer } = await callService(this.services, ROOMS.startGroup, {
      userId: session.sub,
      groupId: params.groupId,
      idempotencyKey: idempotencyKey(req),
    });
    setRoomCookie(res, this.config, memberToken);
    return answer;
  }
}
