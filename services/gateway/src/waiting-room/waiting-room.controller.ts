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
import { clearRoomCookie, requireHost, requireMember, roomMember, setRoomCookie } from './room-identity';
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
      // The body may reach here as sent (rooms validates it): compare the code as rooms will read it.
      cookieUserId:
        cookie && cookie.code === body.waitingRoomId.trim().toUpperCase() ? cookie.userId : undefined,
      idempotencyKey: idempotencyKey(req),
    });
    setRoomCookie(res, this.config, memberToken);
    return answer;
  }

  @Patch('leave')
  async leave(@Body() body: LeaveRoomDto, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    const member = requireMember(req, this.config, body.waitingRoomId, body.userId);
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
  @UseGuards(RateLimitGuard)
  start(@Body() body: StartRoomDto, @Req() req: Request): Promise<PlacesAnswer> {
    const host = requireHost(req, this.config);
    return callService(this.services, ROOMS.start, {
      roomId: host.roomId,
      userId: host.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  @Patch('vote')
  async vote(@Body() body: VoteDto, @Req() req: Request) {
    const member = requireMember(req, this.config, body.waitingRoomId, body.userId);
    return callService(this.services, ROOMS.vote, {
      roomId: member.roomId,
      userId: member.userId,
      body,
      idempotencyKey: idempotencyKey(req),
    });
  }

  @Post('next-batch')
  @HttpCode(200)
  nextBatch(@Body() body: NextBatchDto, @Req() req: Request): Promise<NextBatchAnswer> {
    const host = requireHost(req, this.config, body.waitingRoomId);
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
  nudge(@Body() body: NudgeDto, @Req() req: Request): Promise<NudgeAnswer> {
    const host = requireHost(req, this.config, body.waitingRoomId);
    return callService(this.services, ROOMS.nudge, { roomId: host.roomId, userId: host.userId });
  }

  /** The room this browser is in, for a page reload: answers 404 when it is in none. */
  @Get('current')
  async current(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RoomSnapshot> {
    // A cookie that is no valid room token is a 401 (and goes), as on every other room call.
    let member: RoomMemberClaims;
    try {
      member = requireMember(req, this.config);
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
      if (
        (err as { statusCode?: number }).statusCode === 403 ||
        (err as { statusCode?: number }).statusCode === 404
      ) {
        clearRoomCookie(res, this.config);
      }
      throw err;
    }
  }

  /** The room's live events (SPEC §4), for members only; `Last-Event-ID` resumes after a drop. */
  @Get('events/:waitingRoomId')
  async events(
    @Param('waitingRoomId') waitingRoomId: string,
    // The whole query at once: Express parses the query string again on every read of it.
    @Query() query: { userId?: string; lastEventId?: string },
    @Headers('last-event-id') lastEventIdHeader: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    if (!ROOM_ID_PATTERN.test(waitingRoomId)) throw new BadRequestException(ROOM_MESSAGES.invalidRoomId);
    const { userId, lastEventId: lastEventIdQuery } = query;
    const member = requireMember(req, this.config, waitingRoomId, userId || undefined);
    const opened = await this.hub.attach(res, member, lastEventIdHeader ?? lastEventIdQuery, async () => {
      const answer = await callService(this.services, ROOMS.isMember, {
        roomId: member.roomId,
        userId: member.userId,
      });
      return answer.member;
    });
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
