import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CreateRoomDto, JoinRoomDto, NextBatchDto, ROOMS, StartRoomDto, VoteDto } from '@forkvote/contracts';
import { fail, StreamsContext, validated } from '@forkvote/platform';
import { RoomsService } from './rooms.service';
import { VotingService } from './voting.service';

/** Who is asking, as the gateway established it (session, room cookie or host token). */
interface Caller {
  roomId: string;
  userId: string;
}

function caller(payload: Partial<Caller>): Caller {
  if (typeof payload?.roomId !== 'string' || typeof payload.userId !== 'string')
    fail(400, 'roomId and userId are required');
  return { roomId: payload.roomId, userId: payload.userId };
}

@Controller()
export class RoomsHandler {
  constructor(
    private readonly rooms: RoomsService,
    private readonly voting: VotingService,
  ) {}

  @MessagePattern(ROOMS.create)
  create(@Payload() payload: { accountId: string; body: unknown }, @Ctx() context: StreamsContext) {
    if (typeof payload?.accountId !== 'string') fail(401, 'Please log in to continue.');
    const body = validated(CreateRoomDto, payload.body);
    return this.rooms.create({ userId: payload.accountId }, body.userName, context.getRequestId());
  }

  @MessagePattern(ROOMS.join)
  join(@Payload() payload: { body: unknown; accountId?: string; cookieUserId?: string }) {
    const body = validated(JoinRoomDto, payload.body);
    return this.rooms.join(body.waitingRoomId, body.userName, {
      accountId: payload.accountId,
      cookieUserId: payload.cookieUserId,
    });
  }

  @MessagePattern(ROOMS.leave)
  leave(@Payload() payload: Caller) {
    const { roomId, userId } = caller(payload);
    return this.rooms.leave(roomId, userId);
  }

  @MessagePattern(ROOMS.start)
  start(@Payload() payload: Caller & { body: unknown }) {
    const { roomId, userId } = caller(payload);
    return this.voting.start(roomId, userId, validated(StartRoomDto, payload.body));
  }

  @MessagePattern(ROOMS.vote)
  vote(@Payload() payload: Caller & { body: unknown }) {
    const { roomId, userId } = caller(payload);
    return this.voting.vote(roomId, userId, validated(VoteDto, payload.body).votes);
  }

  @MessagePattern(ROOMS.nextBatch)
  nextBatch(@Payload() payload: Caller & { body: unknown }) {
    const { roomId, userId } = caller(payload);
    return this.voting.nextBatch(roomId, userId, validated(NextBatchDto, payload.body).nextBatchIndex);
  }

  @MessagePattern(ROOMS.snapshot)
  snapshot(@Payload() payload: Caller) {
    const { roomId, userId } = caller(payload);
    return this.rooms.snapshot(roomId, userId);
  }

  @MessagePattern(ROOMS.isMember)
  isMember(@Payload() payload: Caller) {
    const { roomId, userId } = caller(payload);
    return this.rooms.isMember(roomId, userId);
  }
}
