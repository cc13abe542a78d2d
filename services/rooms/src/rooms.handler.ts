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

/** A command may carry the client's idempotency key (the gateway checked it is a UUID). */
interface Retryable {
  idempotencyKey?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The key a command's answer is recorded under: the client's idempotency key, scoped to the command and
 * the caller (so nobody replays another's answer), or else the transport's request id, which a request
 * redelivered after a crash keeps.
 */
function commandKey(context: StreamsContext, caller: string, payload: Retryable | undefined): string {
  const key = payload?.idempotencyKey;
  if (typeof key === 'string' && UUID.test(key))
    return `${context.getPattern()}:${caller}:${key.toLowerCase()}`;
  return `rpc:${context.getRequestId()}`;
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
  create(
    @Payload() payload: Retryable & { accountId: string; body: unknown },
    @Ctx() context: StreamsContext,
  ) {
    if (typeof payload?.accountId !== 'string') fail(401, 'Please log in to continue.');
    const body = validated(CreateRoomDto, payload.body);
    const key = commandKey(context, payload.accountId, payload);
    return this.rooms.create({ userId: payload.accountId }, body.userName, key);
  }

  @MessagePattern(ROOMS.join)
  join(
    @Payload() payload: Retryable & { body: unknown; accountId?: string; cookieUserId?: string },
    @Ctx() context: StreamsContext,
  ) {
    const body = validated(JoinRoomDto, payload.body);
    const who = payload.accountId ?? payload.cookieUserId ?? 'guest';
    return this.rooms.join(
      body.waitingRoomId,
      body.userName,
      { accountId: payload.accountId, cookieUserId: payload.cookieUserId },
      commandKey(context, who, payload),
    );
  }

  @MessagePattern(ROOMS.leave)
  leave(@Payload() payload: Caller & Retryable, @Ctx() context: StreamsContext) {
    const { roomId, userId } = caller(payload);
    return this.rooms.leave(roomId, userId, commandKey(context, userId, payload));
  }

  @MessagePattern(ROOMS.start)
  start(@Payload() payload: Caller & Retryable & { body: unknown }, @Ctx() context: StreamsContext) {
    const { roomId, userId } = caller(payload);
    const search = validated(StartRoomDto, payload.body);
    return this.voting.start(roomId, userId, search, commandKey(context, userId, payload));
  }

  @MessagePattern(ROOMS.vote)
  vote(@Payload() payload: Caller & Retryable & { body: unknown }, @Ctx() context: StreamsContext) {
    const { roomId, userId } = caller(payload);
    const { votes } = validated(VoteDto, payload.body);
    return this.voting.vote(roomId, userId, votes, commandKey(context, userId, payload));
  }

  @MessagePattern(ROOMS.nextBatch)
  nextBatch(@Payload() payload: Caller & Retryable & { body: unknown }, @Ctx() context: StreamsContext) {
    const { roomId, userId } = caller(payload);
    const { nextBatchIndex } = validated(NextBatchDto, payload.body);
    return this.voting.nextBatch(roomId, userId, nextBatchIndex, commandKey(context, userId, payload));
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
