import {
  BadRequestException,
  Body,
  Controller,
  ForbiddenException,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ApiCall, ApiQueryOf, ROOM_HOST, ROOM_MEMBER, SESSION } from '../api-docs';
import { ClientProxy } from '@nestjs/microservices';
import { ApiHeader, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import {
  CreateRoomAnswer,
  CreateRoomDto,
  DecisionRuleAnswer,
  DecisionRuleDto,
  DrawnPick,
  HoldoutAnswer,
  HoldoutAnswerDto,
  HoldoutRound,
  RoomBatchDto,
  SharePlanAnswer,
  SharePlanDto,
  JoinRoomAnswer,
  LimitsAnswer,
  LimitsQueryDto,
  PrivateLimitsDto,
  JoinRoomDto,
  LeaveRoomDto,
  NextBatchAnswer,
  NextBatchDto,
  NudgeAnswer,
  NudgeDto,
  PlacesAnswer,
  PushKeyAnswer,
  PushSubscriptionDto,
  ROOM_EVENTS,
  ROOM_ID_PATTERN,
  ROOM_MESSAGES,
  ROOMS,
  RoomMemberClaims,
  RoomSnapshot,
  SessionClaims,
  StartRoomDto,
  VoteDto,
} from '@forkvote/contracts';
import { callService, SERVICE_CLIENT } from '@forkvote/platform';
import type { Request, Response } from 'express';
import { OptionalSessionGuard, Session, SessionGuard } from '../auth/session';
import { RateLimit, RateLimitGuard } from '../common/rate-limit';
import { GatewayConfig } from '../gateway.config';
import {
  actsIn,
  Caller,
  clearRoomCookie,
  memberOf,
  RoomCaller,
  RoomHostGuard,
  roomMember,
  RoomMemberGuard,
  setRoomCookie,
} from './room-identity';
import { RoomEventsHub } from './room-events.hub';

@ApiTags('waiting-room')
@Controller('waiting-room')
export class WaitingRoomController {
  constructor(
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly config: GatewayConfig,
    private readonly hub: RoomEventsHub,
  ) {}

  /** Hosts only: a logged-in user whose plan allows hosting. Answers the host's bearer token. */
  @Post('create')
  @ApiCall(
    'Opens a waiting room (hosts only); answers the host bearer token and sets the room cookie.',
    'CreateRoomAnswer',
  )
  @SESSION()
  @HttpCode(200)
  @UseGuards(SessionGuard)
  async create(
    @Body() body: CreateRoomDto,
    @Session() session: SessionClaims,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreateRoomAnswer> {
    const { memberToken, ...answer } = await callService(this.services, ROOMS.create, {
      accountId: session.sub,
      body,
      idempotencyKey: idempotencyKey(req),
    });
    setRoomCookie(res, this.config, memberToken);
    return answer;
  }

  @Patch('join')
  @ApiCall(
    'Joins a waiting room as a guest or as the signed-in user; sets the room cookie.',
    'JoinRoomAnswer',
  )
  @UseGuards(OptionalSessionGuard)
  async join(
    @Body() body: JoinRoomDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<JoinRoomAnswer> {
    const session = req.user as SessionClaims | null;
    const cookie = roomMember(req, this.config);
    const { memberToken, ...answer } = await callService(this.services, ROOMS.join, {
      body,
      accountId: session?.sub,
      cookieUserId: cookie && cookie.code === body.waitingRoomId ? cookie.userId : undefined,
      idempotencyKey: idempotencyKey(req),
    });
    setRoomCookie(res, this.config, memberToken);
    return answer;
  }

  @Patch('leave')
  @ApiCall('Leaves the room; the host leaving closes it for everyone.', 'Message')
  @ROOM_MEMBER()
  @UseGuards(RoomMemberGuard)
  async leave(
    @Body() body: LeaveRoomDto,
    @Caller() caller: RoomCaller,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const member = actsIn(caller, body.waitingRoomId, body.userId);
    await callService(this.services, ROOMS.leave, {
      roomId: member.roomId,
      userId: member.userId,
      idempotencyKey: idempotencyKey(req),
    });
    clearRoomCookie(res, this.config);
    return { message: 'You left the waiting room.' };
  }

  @Post('start')
  @ApiCall('Searches places and starts voting (host only).', 'PlacesAnswer')
  @ROOM_HOST()
  @HttpCode(200)
  @RateLimit('startVoting')
  @UseGuards(RoomHostGuard, RateLimitGuard)
  start(@Body() body: StartRoomDto, @Caller() host: RoomCaller, @Req() req: Request): Promise<PlacesAnswer> {
    return callService(this.services, ROOMS.start, {
      roomId: host.roomId,
      userId: host.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  @Patch('vote')
  @ApiCall('Casts the member’s votes on the 5 places of the batch.', 'VoteAnswer')
  @ROOM_MEMBER()
  @UseGuards(RoomMemberGuard)
  vote(@Body() body: VoteDto, @Caller() caller: RoomCaller, @Req() req: Request) {
    const member = actsIn(caller, body.waitingRoomId, body.userId);
    return callService(this.services, ROOMS.vote, {
      roomId: member.roomId,
      userId: member.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  @Post('next-batch')
  @ApiCall('Moves the room to its next batch (host only); says so when none is left.', 'NextBatchAnswer')
  @ROOM_HOST()
  @HttpCode(200)
  @UseGuards(RoomHostGuard)
  nextBatch(
    @Body() body: NextBatchDto,
    @Caller() caller: RoomCaller,
    @Req() req: Request,
  ): Promise<NextBatchAnswer> {
    const host = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.nextBatch, {
      roomId: host.roomId,
      userId: host.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  /** Host only: reminds the members who have not voted on the batch (each at most once per 30 s). */
  @Post('nudge')
  @ApiCall('Reminds the members who have not voted (host only; each member once per 30 s).', 'NudgeAnswer')
  @ROOM_HOST()
  @HttpCode(200)
  @UseGuards(RoomHostGuard)
  nudge(@Body() body: NudgeDto, @Caller() caller: RoomCaller): Promise<NudgeAnswer> {
    const host = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.nudge, { roomId: host.roomId, userId: host.userId });
  }

  /** Host only, before voting starts: how the room decides (docs/decisions.md). */
  @Patch('rule')
  @ApiCall(
    'Chooses how the room decides (host only, before voting starts): unanimous, majority or most.',
    'DecisionRuleAnswer',
  )
  @ROOM_HOST()
  @UseGuards(RoomHostGuard)
  setRule(
    @Body() body: DecisionRuleDto,
    @Caller() caller: RoomCaller,
    @Req() req: Request,
  ): Promise<DecisionRuleAnswer> {
    const host = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.setRule, {
      roomId: host.roomId,
      userId: host.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  /** Host only: asks the holdouts of a batch with no winner whether they could live with the near-winners. */
  @Post('holdouts')
  @ApiCall(
    'Asks the people who said no to the places that came closest whether they could live with them (host only).',
    'HoldoutRound',
  )
  @ROOM_HOST()
  @HttpCode(200)
  @UseGuards(RoomHostGuard)
  askHoldouts(
    @Body() body: RoomBatchDto,
    @Caller() caller: RoomCaller,
    @Req() req: Request,
  ): Promise<HoldoutRound> {
    const host = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.askHoldouts, {
      roomId: host.roomId,
      userId: host.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  @Patch('holdouts/answer')
  @ApiCall(
    'Answers “Could you live with {place}?” (only the holdouts asked; once per place).',
    'HoldoutAnswer',
  )
  @ROOM_MEMBER()
  @UseGuards(RoomMemberGuard)
  answerHoldout(
    @Body() body: HoldoutAnswerDto,
    @Caller() caller: RoomCaller,
    @Req() req: Request,
  ): Promise<HoldoutAnswer> {
    const member = actsIn(caller, body.waitingRoomId, body.userId);
    return callService(this.services, ROOMS.answerHoldout, {
      roomId: member.roomId,
      userId: member.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  /** Host only: one fair draw among the batch's winners (or the closest places), never repeated. */
  @Post('pick')
  @ApiCall(
    'Draws one place among the batch’s winners, or the closest places with none (host only; once per batch).',
    'DrawnPick',
  )
  @ROOM_HOST()
  @HttpCode(200)
  @UseGuards(RoomHostGuard)
  drawPick(
    @Body() body: RoomBatchDto,
    @Caller() caller: RoomCaller,
    @Req() req: Request,
  ): Promise<DrawnPick> {
    const host = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.drawPick, {
      roomId: host.roomId,
      userId: host.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  /** Any member: the decided place as a public plan page (/plan/{token}) and a calendar file. */
  @Post('plan')
  @ApiCall(
    'Shares the place the batch decided on as a public plan; answers its token and path.',
    'SharePlanAnswer',
  )
  @ROOM_MEMBER()
  @HttpCode(200)
  @UseGuards(RoomMemberGuard)
  sharePlan(@Body() body: SharePlanDto, @Caller() caller: RoomCaller): Promise<SharePlanAnswer> {
    const member = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.sharePlan, {
      roomId: member.roomId,
      userId: member.userId,
      body,
    });
  }

  /** A member's own private limits in this room (theirs only; docs/groups.md). */
  @Get('limits')
  @ApiCall(
    'The caller’s own private limits in this room (or those saved with their profile, if they set none here).',
    'LimitsAnswer',
  )
  @ROOM_MEMBER()
  @ApiQueryOf(LimitsQueryDto)
  @UseGuards(RoomMemberGuard)
  getLimits(@Query() query: LimitsQueryDto, @Caller() caller: RoomCaller): Promise<LimitsAnswer> {
    const member = actsIn(caller, query.waitingRoomId);
    return callService(this.services, ROOMS.limits, { roomId: member.roomId, userId: member.userId });
  }

  /** Before voting starts: places that fail them are left out; nobody else sees them, the host a count. */
  @Put('limits')
  @ApiCall(
    'Sets the caller’s private limits (diet, highest price, longest distance) before voting starts.',
    'LimitsAnswer',
  )
  @ROOM_MEMBER()
  @UseGuards(RoomMemberGuard)
  setLimits(@Body() body: PrivateLimitsDto, @Caller() caller: RoomCaller): Promise<LimitsAnswer> {
    const member = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.setLimits, {
      roomId: member.roomId,
      userId: member.userId,
      body,
    });
  }

  /** The server's VAPID public key, for a browser that subscribes to notifications. */
  @Get('push-key')
  @ApiCall(
    'The public key browsers subscribe to notifications with (404 when notifications are off).',
    'PushKeyAnswer',
  )
  pushKey(): Promise<PushKeyAnswer> {
    return callService(this.services, ROOMS.pushKey, {});
  }

  /** A member's browser asks to be told when it is their turn (Web Push). */
  @Post('push')
  @ApiCall(
    'Subscribes this member’s browser to the room’s notifications (voting started, results, holdout questions).',
    'PushSubscribed',
  )
  @ROOM_MEMBER()
  @HttpCode(200)
  @UseGuards(RoomMemberGuard)
  pushSubscribe(@Body() body: PushSubscriptionDto, @Caller() caller: RoomCaller) {
    const member = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.pushSubscribe, {
      roomId: member.roomId,
      userId: member.userId,
      body,
    });
  }

  /** The room this browser is in, for a page reload: answers 404 when it is in none. */
  @Get('current')
  @ApiCall(
    'The room this browser is in, for a reload: members, places, votes, results and the last event id.',
    'RoomSnapshot',
  )
  @ROOM_MEMBER()
  async current(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RoomSnapshot> {
    // A cookie that is no valid room token is a 401 (and goes), as on every other room call.
    let member: RoomMemberClaims;
    try {
      member = memberOf(req, this.config);
    } catch (err) {
      if (err instanceof UnauthorizedException) clearRoomCookie(res, this.config);
      throw err;
    }
    try {
      return await callService(this.services, ROOMS.snapshot, {
        roomId: member.roomId,
        userId: member.userId,
      });
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 403 || status === 404) clearRoomCookie(res, this.config);
      throw err;
    }
  }

  /** The room's live events (SPEC §4), for members only; `Last-Event-ID` resumes after a drop. */
  @Get('events/:waitingRoomId')
  @ApiCall(
    'The room’s live events as a server-sent event stream (members only). Each event has an `id`; send the last one as `Last-Event-ID` (or `lastEventId`) to resume after a drop, and receive every event missed, once, then `SUBSCRIBED_TO_SSE`. Events: ' +
      Object.values(ROOM_EVENTS).join(', ') +
      ' (payloads: `RoomEvents`). A comment line every 15 s keeps proxies open.',
    { media: 'text/event-stream' },
  )
  @ROOM_MEMBER()
  @ApiParam({
    name: 'waitingRoomId',
    description: 'The 6-character room code.',
    schema: { type: 'string', pattern: '^[A-Za-z0-9]{6}$' },
  })
  @ApiQuery({
    name: 'userId',
    type: String,
    required: false,
    description: 'The member’s id (must match the room cookie).',
  })
  @ApiQuery({
    name: 'userName',
    type: String,
    required: false,
    description: 'Sent by the web app; not used.',
  })
  @ApiQuery({
    name: 'lastEventId',
    required: false,
    description: 'Resume after this event id (as Last-Event-ID).',
    schema: { type: 'string', pattern: '^\\d+-\\d+$' },
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event received: the stream replays what came after it.',
    schema: { type: 'string', pattern: '^\\d+-\\d+$' },
  })
  @UseGuards(RoomMemberGuard)
  async events(
    @Param('waitingRoomId') waitingRoomId: string,
    @Query() query: { userId?: string; lastEventId?: string },
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Caller() caller: RoomCaller,
    @Res() res: Response,
  ): Promise<void> {
    if (!ROOM_ID_PATTERN.test(waitingRoomId)) throw new BadRequestException(ROOM_MESSAGES.invalidRoomId);
    const member = actsIn(caller, waitingRoomId, query.userId || undefined);
    const opened = await this.hub.attach(
      res,
      { roomId: member.roomId, code: member.code, userId: member.userId, userName: member.userName ?? '' },
      lastEventIdHeader ?? query.lastEventId,
      async () => {
        const answer = await callService(this.services, ROOMS.isMember, {
          roomId: member.roomId,
          userId: member.userId,
        });
        return answer.member;
      },
    );
    if (!opened) throw new ForbiddenException(ROOM_MESSAGES.notMember);
  }
}

/**
 * The client's `Idempotency-Key` (a UUID): a command retried with the same key answers what it answered
 * the first time instead of acting again. Optional; without it a command is still safe against the
 * transport redelivering it.
 */
export function idempotencyKey(req: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !isUUID(key)) throw new BadRequestException(ROOM_MESSAGES.badIdempotencyKey);
  return key;
}
