import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsString,
  IsUUID,
  Matches,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  FeedbackDto,
  LoginDto,
  RegisterDto,
  RequestPasswordResetDto,
  ResetPasswordWithTokenDto,
  UpdateMeDto,
} from './auth';
import { SubscribeDto } from './billing';
import { HistoryQueryDto } from './history';
import { PushSubscriptionDto } from './push';
import { PrivateLimitsDto } from './limits';
import { GROUP_MESSAGES } from './group-rules';
import { SaveGroupDto } from './groups';
import { MESSAGES } from './messages';
import { PLANS, Plan } from './plans';
import { CreateRoomDto, JoinRoomDto, NextBatchDto, StartRoomDto, VoteDto } from './rooms';
import {
  DecisionRuleDto,
  HoldoutAnswerDto,
  PLAN_TOKEN_PATTERN,
  RoomBatchDto,
  SharePlanDto,
} from './decisions';
import { EMAIL_PATTERN } from './rules';
import { Optional, Text, TEXT_COLUMNS } from './validation';

/**
 * What one service sends another: the request of each message pattern as a class, validated at the
 * receiving service by the platform's RPC pipe (a service never trusts its caller). A browser's body
 * travels inside as `body`, validated by the same DTO the gateway used.
 */

/** The browser's body, validated as `dto`. */
const Body =
  (dto: new () => object): PropertyDecorator =>
  (target, key) => {
    IsDefined({ message: 'body is required' })(target, key);
    ValidateNested()(target, key);
    Type(() => dto)(target, key);
  };

const IdempotencyKey = (): PropertyDecorator => (target, key) => {
  Optional()(target, key);
  IsUUID('all', { message: 'Idempotency-Key must be a UUID.' })(target, key);
};

/** A request that acts for a logged-in account, as the gateway established it from the session. */
export class UserScoped {
  @IsUUID('all', { message: 'A valid userId is required' })
  userId: string;
}

export class RegisterCommand {
  @Body(RegisterDto)
  body: RegisterDto;

  /** The client's address, for the bot check. */
  @Optional()
  @Text(64)
  ip?: string;
}

export class LoginCommand {
  @Body(LoginDto)
  body: LoginDto;
}

export class SubscribeCommand extends UserScoped {
  @Body(SubscribeDto)
  body: SubscribeDto;
}

export class RequestPasswordResetCommand {
  @Body(RequestPasswordResetDto)
  body: RequestPasswordResetDto;
}

export class ResetPasswordCommand {
  @Body(ResetPasswordWithTokenDto)
  body: ResetPasswordWithTokenDto;
}

export class UpdateMeCommand extends UserScoped {
  @Body(UpdateMeDto)
  body: UpdateMeDto;
}

export class FeedbackCommand {
  @Body(FeedbackDto)
  body: FeedbackDto;
}

/** `auth.session.check` and `auth.logout`: one session, by its token id and its user. */
export class SessionCheck extends UserScoped {
  @IsUUID('all', { message: 'A valid session id is required' })
  jti: string;
}

export class CreateRoomCommand {
  @Body(CreateRoomDto)
  body: CreateRoomDto;

  @IsUUID('all', { message: MESSAGES.notLoggedIn })
  accountId: string;

  @IdempotencyKey()
  idempotencyKey?: string;
}

export class JoinRoomCommand {
  @Body(JoinRoomDto)
  body: JoinRoomDto;

  /** The logged-in account joining, if any. */
  @Optional()
  @IsUUID()
  accountId?: string;

  /** A guest's id from this room's cookie, so a guest who joins again stays the same guest. */
  @Optional()
  @Text(TEXT_COLUMNS.userId)
  cookieUserId?: string;

  @IdempotencyKey()
  idempotencyKey?: string;
}

/** A member or the host acting in a room, as the gateway established it from their token. */
export class RoomCaller {
  @IsUUID('all', { message: 'roomId and userId are required' })
  roomId: string;

  @Text(TEXT_COLUMNS.userId, { message: 'roomId and userId are required' })
  userId: string;

  @IdempotencyKey()
  idempotencyKey?: string;
}

export class StartRoomCommand extends RoomCaller {
  @Body(StartRoomDto)
  body: StartRoomDto;
}

export class VoteCommand extends RoomCaller {
  @Body(VoteDto)
  body: VoteDto;
}

export class NextBatchCommand extends RoomCaller {
  @Body(NextBatchDto)
  body: NextBatchDto;
}

export class DecisionRuleCommand extends RoomCaller {
  @Body(DecisionRuleDto)
  body: DecisionRuleDto;
}

/** Asking the holdouts, or drawing a pick: about the room's current batch. */
export class RoomBatchCommand extends RoomCaller {
  @Body(RoomBatchDto)
  body: RoomBatchDto;
}

export class HoldoutAnswerCommand extends RoomCaller {
  @Body(HoldoutAnswerDto)
  body: HoldoutAnswerDto;
}

export class SharePlanCommand extends RoomCaller {
  @Body(SharePlanDto)
  body: SharePlanDto;
}

export class SetLimitsCommand extends RoomCaller {
  @Body(PrivateLimitsDto)
  body: PrivateLimitsDto;
}

/** The saved private limits of these accounts (rooms asks, at start, for members who set none there). */
export class SavedLimitsQuery {
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @Text(TEXT_COLUMNS.userId, { each: true })
  userIds: string[];
}

export class SaveGroupCommand extends UserScoped {
  @Body(SaveGroupDto)
  body: SaveGroupDto;
}

/** The signed-in user acting on one of their groups. */
export class GroupCommand extends UserScoped {
  @IsUUID('all', { message: GROUP_MESSAGES.notFound })
  groupId: string;
}

export class GroupMemberCommand extends GroupCommand {
  @IsInt({ message: GROUP_MESSAGES.memberNotFound })
  @Min(0, { message: GROUP_MESSAGES.memberNotFound })
  memberId: number;
}

export class StartGroupCommand extends GroupCommand {
  @IdempotencyKey()
  idempotencyKey?: string;
}

export class InvitationCommand extends UserScoped {
  @Matches(/^[A-Z0-9]{6}$/, { message: GROUP_MESSAGES.invitationGone })
  waitingRoomId: string;
}

export class PushSubscribeCommand extends RoomCaller {
  @Body(PushSubscriptionDto)
  body: PushSubscriptionDto;
}

/** A page of a registered member's history. */
export class HistoryCommand extends UserScoped {
  @Body(HistoryQueryDto)
  query: HistoryQueryDto;
}

/** A public plan, by its token. */
export class PlanQuery {
  @IsString({ message: 'This plan does not exist.' })
  @Matches(PLAN_TOKEN_PATTERN, { message: 'This plan does not exist.' })
  token: string;
}

export class CreateCheckoutCommand extends UserScoped {
  @Text(TEXT_COLUMNS.email, { message: 'A valid email is required' })
  @Matches(EMAIL_PATTERN, { message: 'A valid email is required' })
  email: string;

  @IsIn(PLANS, { message: MESSAGES.invalidPlan })
  plan: Plan;
}

export class StripeWebhookCommand {
  /** The exact bytes Stripe signed. */
  @IsString({ message: 'Invalid webhook' })
  rawBody: string;

  @Text(2000, { message: 'Invalid webhook' })
  signature: string;
}

/** Who is viewing, completing or cancelling a local checkout: its owner's session, or its secret. */
export class LocalCheckoutAccess {
  @Text(64, { message: 'This checkout does not exist.' })
  id: string;

  @Optional()
  @IsUUID()
  userId?: string;

  @Optional()
  @Text(200)
  secret?: string;
}
