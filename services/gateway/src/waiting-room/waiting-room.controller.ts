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
  Query,
  Req,
  Res,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ApiTags } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import {
  CreateRoomAnswer,
  CreateRoomDto,
  JoinRoomAnswer,
  JoinRoomDto,
  LeaveRoomDto,
  NextBatchAnswer,
  NextBatchDto,
  NudgeAnswer,
  NudgeDto,
  PlacesAnswer,
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
  @HttpCode(200)
  @UseGuards(RoomHostGuard)
  nudge(@Body() body: NudgeDto, @Caller() caller: RoomCaller): Promise<NudgeAnswer> {
    const host = actsIn(caller, body.waitingRoomId);
    return callService(this.services, ROOMS.nudge, { roomId: host.roomId, userId: host.userId });
  }

  /** The room this browser is in, for a page reload: answers 404 when it is in none. */
  @Get('current')
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
function idempotencyKey(req: Request): string | undefined {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !isUUID(key)) throw new BadRequestException(ROOM_MESSAGES.badIdempotencyKey);
  return key;
}
