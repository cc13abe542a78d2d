import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import {
  DecisionRuleCommand,
  HistoryCommand,
  PushSubscribeCommand,
  SetLimitsCommand,
  SaveGroupCommand,
  GroupCommand,
  GroupMemberCommand,
  StartGroupCommand,
  InvitationCommand,
  UserScoped,
  HoldoutAnswerCommand,
  PlanQuery,
  RoomBatchCommand,
  SharePlanCommand,
  CreateRoomCommand,
  JoinRoomCommand,
  NextBatchCommand,
  RoomCaller,
  ROOMS,
  StartRoomCommand,
  VoteCommand,
} from '@forkvote/contracts';
import { StreamsContext } from '@forkvote/platform';
import { MembershipService } from './membership.service';
import { withRequest } from './outbox/command-log';
import { VotingService } from './voting.service';
import { DecisionsService } from './decisions.service';
import { HistoryService } from './history.service';
import { PushService } from './push/push.service';
import { LimitsService } from './limits.service';
import { GroupsService } from './groups.service';

/**
 * The key a command's answer is recorded under: the client's idempotency key, scoped to the command and
 * the caller (so nobody replays another's answer) and bound to what was asked (`request`: the same key
 * with another request is refused with 422, see CommandLog), or else the transport's request id, which a
 * request redelivered after a crash keeps.
 */
function commandKey(
  context: StreamsContext,
  caller: string,
  command: { idempotencyKey?: string },
  request: unknown,
): string {
  // The RPC pipe has checked that a given key is a UUID.
  const key = command.idempotencyKey?.toLowerCase();
  return key
    ? withRequest(`${context.getPattern()}:${caller}:${key}`, request)
    : `rpc:${context.getRequestId()}`;
}

@Controller()
export class RoomsHandler {
  constructor(
    private readonly rooms: MembershipService,
    private readonly voting: VotingService,
    private readonly decisions: DecisionsService,
    private readonly pastSessions: HistoryService,
    private readonly push: PushService,
    private readonly limits: LimitsService,
    private readonly groups: GroupsService,
  ) {}

  @MessagePattern(ROOMS.create)
  create(@Payload() command: CreateRoomCommand, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.accountId, command, command.body);
    return this.rooms.create({ userId: command.accountId }, command.body.userName, key);
  }

  @MessagePattern(ROOMS.join)
  join(@Payload() command: JoinRoomCommand, @Ctx() context: StreamsContext) {
    const { accountId, cookieUserId, body } = command;
    // A guest with no cookie is nobody yet: the key is bound to the room and the name they asked for.
    const key = commandKey(context, accountId ?? cookieUserId ?? 'guest', command, {
      code: body.waitingRoomId,
      userName: body.userName,
    });
    return this.rooms.join(body.waitingRoomId, body.userName, { accountId, cookieUserId }, key);
  }

  @MessagePattern(ROOMS.leave)
  leave(@Payload() command: RoomCaller, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.userId, command, { roomId: command.roomId });
    return this.rooms.leave(command.roomId, command.userId, key);
  }

  @MessagePattern(ROOMS.start)
  start(@Payload() command: StartRoomCommand, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.userId, command, { roomId: command.roomId, ...command.body });
    return this.voting.start(command.roomId, command.userId, command.body, key);
  }

  @MessagePattern(ROOMS.vote)
  vote(@Payload() command: VoteCommand, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.userId, command, {
      roomId: command.roomId,
      votes: command.body.votes,
    });
    return this.voting.vote(command.roomId, command.userId, command.body.votes, key);
  }

  @MessagePattern(ROOMS.nextBatch)
  nextBatch(@Payload() command: NextBatchCommand, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.userId, command, {
      roomId: command.roomId,
      nextBatchIndex: command.body.nextBatchIndex,
    });
    return this.voting.nextBatch(command.roomId, command.userId, command.body.nextBatchIndex, key);
  }

  @MessagePattern(ROOMS.nudge)
  nudge(@Payload() command: RoomCaller) {
    return this.voting.nudge(command.roomId, command.userId);
  }

  @MessagePattern(ROOMS.setRule)
  setRule(@Payload() command: DecisionRuleCommand, @Ctx() context: StreamsContext) {
    const { decisionRule } = command.body;
    const key = commandKey(context, command.userId, command, { roomId: command.roomId, decisionRule });
    return this.decisions.setRule(command.roomId, command.userId, decisionRule, key);
  }

  @MessagePattern(ROOMS.askHoldouts)
  askHoldouts(@Payload() command: RoomBatchCommand, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.userId, command, { roomId: command.roomId });
    return this.decisions.askHoldouts(command.roomId, command.userId, key);
  }

  @MessagePattern(ROOMS.answerHoldout)
  answerHoldout(@Payload() command: HoldoutAnswerCommand, @Ctx() context: StreamsContext) {
    const { placeId, answer } = command.body;
    const key = commandKey(context, command.userId, command, { roomId: command.roomId, placeId, answer });
    return this.decisions.answerHoldout(command.roomId, command.userId, placeId, answer, key);
  }

  @MessagePattern(ROOMS.drawPick)
  drawPick(@Payload() command: RoomBatchCommand, @Ctx() context: StreamsContext) {
    const key = commandKey(context, command.userId, command, { roomId: command.roomId });
    return this.decisions.drawPick(command.roomId, command.userId, key);
  }

  @MessagePattern(ROOMS.sharePlan)
  sharePlan(@Payload() command: SharePlanCommand) {
    const { placeId, startsAt } = command.body;
    return this.decisions.sharePlan(command.roomId, command.userId, placeId, startsAt);
  }

  @MessagePattern(ROOMS.plan)
  plan(@Payload() query: PlanQuery) {
    return this.decisions.plan(query.token);
  }

  @MessagePattern(ROOMS.history)
  history(@Payload() command: HistoryCommand) {
    return this.pastSessions.history(command.userId, command.query.page);
  }

  @MessagePattern(ROOMS.recentPicks)
  recentPicks(@Payload() command: UserScoped) {
    return this.pastSessions.recentPicks(command.userId);
  }

  @MessagePattern(ROOMS.limits)
  getLimits(@Payload() command: RoomCaller) {
    return this.limits.get(command.roomId, command.userId);
  }

  @MessagePattern(ROOMS.setLimits)
  setLimits(@Payload() command: SetLimitsCommand) {
    const { diet, maxPriceLevel, maxDistanceMeters } = command.body;
    return this.limits.set(command.roomId, command.userId, { diet, maxPriceLevel, maxDistanceMeters });
  }

  @MessagePattern(ROOMS.groups)
  listGroups(@Payload() command: UserScoped) {
    return this.groups.list(command.userId);
  }

  @MessagePattern(ROOMS.saveGroup)
  saveGroup(@Payload() command: SaveGroupCommand) {
    return this.groups.save(command.userId, command.body.waitingRoomId, command.body.name);
  }

  @MessagePattern(ROOMS.deleteGroup)
  deleteGroup(@Payload() command: GroupCommand) {
    return this.groups.delete(command.userId, command.groupId);
  }

  @MessagePattern(ROOMS.removeGroupMember)
  removeGroupMember(@Payload() command: GroupMemberCommand) {
    return this.groups.remove(command.userId, command.groupId, command.memberId);
  }

  @MessagePattern(ROOMS.startGroup)
  startGroup(@Payload() command: StartGroupCommand, @Ctx() context: StreamsContext) {
    // The key of a room made by rooms.create, so the room a retry finds is the one it made.
    const key = commandKey(context, command.userId, command, { groupId: command.groupId });
    return this.groups.start(command.userId, command.groupId, key);
  }

  @MessagePattern(ROOMS.invitations)
  invitations(@Payload() command: UserScoped) {
    return this.groups.invitations(command.userId);
  }

  @MessagePattern(ROOMS.dismissInvitation)
  dismissInvitation(@Payload() command: InvitationCommand) {
    return this.groups.dismiss(command.userId, command.waitingRoomId);
  }

  @MessagePattern(ROOMS.pushKey)
  pushKey() {
    return this.push.publicKey();
  }

  @MessagePattern(ROOMS.pushSubscribe)
  pushSubscribe(@Payload() command: PushSubscribeCommand) {
    return this.push.subscribe(command.roomId, command.userId, command.body);
  }

  @MessagePattern(ROOMS.snapshot)
  snapshot(@Payload() command: RoomCaller) {
    return this.rooms.snapshot(command.roomId, command.userId);
  }

  @MessagePattern(ROOMS.isMember)
  isMember(@Payload() command: RoomCaller) {
    return this.rooms.isMember(command.roomId, command.userId);
  }
}
