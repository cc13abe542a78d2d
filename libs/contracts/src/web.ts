/**
 * What the browser may import: texts, rules, constants and wire types, without the DTO classes (and so
 * without class-validator) that the services use.
 */
export * from './messages';
export * from './rules';
export * from './place-types';
export * from './plans';
export * from './health';
export * from './errors';
export * from './session';
export type {
  AccessTokenPayload,
  WireUser,
  OutboxMessage,
  RegisterDto,
  LoginDto,
  RequestPasswordResetDto,
  ResetPasswordWithTokenDto,
  UpdateMeDto,
  FeedbackDto,
} from './auth';
export type {
  Entitlement,
  StripeInformation,
  StripeSubscriptionShape,
  CheckoutAnswer,
  SubscribeDto,
} from './billing';
export * from './search-rules';
export * from './filter-categories';
export * from './filter-rules';
export type { Place, PlacePhoto, PlacesAnswer, GeocodeAnswer, PlaceTypesAnswer } from './places';
export * from './room-rules';
export * from './decision-rules';
export type { DecisionRuleDto, HoldoutAnswerDto, RoomBatchDto, SharePlanDto } from './decisions';
export type {
  Ballot,
  BallotsResult,
  CreateRoomAnswer,
  JoinRoomAnswer,
  NextBatchAnswer,
  NudgeAnswer,
  RoomSnapshot,
  RoomState,
  RoomUser,
  WaitingRoom,
  RoomEventMap,
  CreateRoomDto,
  JoinRoomDto,
  LeaveRoomDto,
  VoteDto,
  NextBatchDto,
  StartRoomDto,
} from './rooms';
export {
  FRESH_PICK_DAYS,
  pickedAgoText,
  newPlacesFirst,
  type RecentPicks,
  HISTORY_PAGE_SIZE,
  sessionOutcome,
  type HistoryBatch,
  type HistoryPage,
  type HistoryPlace,
  type HistorySession,
} from './history-rules';
export * from './limits-rules';
export * from './group-rules';
export type { SaveGroupDto } from './groups';
export type { LimitsFieldsDto, PrivateLimitsDto } from './limits';
export { PUSH_MESSAGES, type PushKeyAnswer, type PushMessage } from './push-rules';
