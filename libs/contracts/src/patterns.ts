import type { AccessTokenPayload, LoginAnswer, OutboxMessage, WireUser } from './auth';
import type { CheckoutAnswer, Entitlement, LocalCheckoutView, StripeInformation } from './billing';
import type {
  CreateCheckoutCommand,
  CreateRoomCommand,
  FeedbackCommand,
  JoinRoomCommand,
  LocalCheckoutAccess,
  LoginCommand,
  NextBatchCommand,
  RegisterCommand,
  RequestPasswordResetCommand,
  ResetPasswordCommand,
  RoomCaller,
  SessionCheck,
  StartRoomCommand,
  StripeWebhookCommand,
  SubscribeCommand,
  UpdateMeCommand,
  UserScoped,
  VoteCommand,
  DecisionRuleCommand,
  RoomBatchCommand,
  HoldoutAnswerCommand,
  SharePlanCommand,
  PlanQuery,
  HistoryCommand,
  PushSubscribeCommand,
  SetLimitsCommand,
  SaveGroupCommand,
  GroupCommand,
  GroupMemberCommand,
  StartGroupCommand,
  InvitationCommand,
  SavedLimitsQuery,
} from './commands';
import type { PushKeyAnswer, PushSubscribed } from './push';
import type { LimitsAnswer, PrivateLimits } from './limits-rules';
import type { GroupsAnswer, InvitationsAnswer, SavedGroup } from './group-rules';
import type { HistoryPage, RecentPicks } from './history';
import type {
  DecisionRuleAnswer,
  DrawnPick,
  HoldoutAnswer,
  HoldoutRound,
  PlanView,
  SharePlanAnswer,
} from './decisions';
import type { ServiceHealthReport } from './health';
import type {
  GeocodeAnswer,
  GeocodeQueryDto,
  PhotoAnswer,
  PhotoQueryDto,
  PlacesAnswer,
  PlacesSearchDto,
  PlaceTypesAnswer,
} from './places';
import type { CreateRoomAnswer, JoinRoomAnswer, NextBatchAnswer, NudgeAnswer, RoomSnapshot } from './rooms';

export const SERVICE_NAMES = ['auth', 'rooms', 'billing', 'places'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * A message pattern that names its request and answer types once: `callService(client, ROOMS.join, …)`
 * then checks the request and infers the answer. At run time it is the plain pattern string.
 */
export type Pattern<Request, Answer> = string & { readonly __call?: (request: Request) => Answer };
export const pattern = <Request, Answer>(name: string) => name as Pattern<Request, Answer>;
export type RequestOf<P> = P extends { readonly __call?: (request: infer R) => unknown } ? R : never;
export type AnswerOf<P> = P extends { readonly __call?: (request: never) => infer A } ? A : never;

type Empty = Record<string, never>;
type Message = { message: string };
type Redirect = { redirect: string };

/** Answers that carry a room member token, for the gateway's httpOnly cookie only. */
type WithMemberToken<A> = A & { memberToken: string };

export const AUTH = {
  health: pattern<Empty, ServiceHealthReport>('auth.health'),
  register: pattern<RegisterCommand, CheckoutAnswer>('auth.register'),
  login: pattern<LoginCommand, LoginAnswer>('auth.login'),
  verify: pattern<UserScoped, AccessTokenPayload>('auth.verify'),
  checkSession: pattern<SessionCheck, { live: boolean }>('auth.session.check'),
  logout: pattern<SessionCheck, Message>('auth.logout'),
  subscribe: pattern<SubscribeCommand, CheckoutAnswer>('auth.subscribe'),
  requestPasswordReset: pattern<RequestPasswordResetCommand, Message>('auth.password.requestReset'),
  resetPassword: pattern<ResetPasswordCommand, Message>('auth.password.reset'),
  getMe: pattern<UserScoped, WireUser>('auth.me.get'),
  updateMe: pattern<UpdateMeCommand, WireUser>('auth.me.update'),
  feedback: pattern<FeedbackCommand, Message>('auth.feedback'),
  outbox: pattern<Empty, OutboxMessage[]>('auth.outbox'),
  savedLimits: pattern<SavedLimitsQuery, { limits: Record<string, PrivateLimits> }>('auth.limits.saved'),
} as const;

export const ROOMS = {
  health: pattern<Empty, ServiceHealthReport>('rooms.health'),
  create: pattern<CreateRoomCommand, WithMemberToken<CreateRoomAnswer>>('rooms.create'),
  join: pattern<JoinRoomCommand, WithMemberToken<JoinRoomAnswer>>('rooms.join'),
  leave: pattern<RoomCaller, { left: true }>('rooms.leave'),
  start: pattern<StartRoomCommand, PlacesAnswer>('rooms.start'),
  vote: pattern<VoteCommand, { voted: true; usersVoted: string[] }>('rooms.vote'),
  nextBatch: pattern<NextBatchCommand, NextBatchAnswer>('rooms.nextBatch'),
  nudge: pattern<RoomCaller, NudgeAnswer>('rooms.nudge'),
  snapshot: pattern<RoomCaller, RoomSnapshot>('rooms.snapshot'),
  isMember: pattern<RoomCaller, { member: boolean }>('rooms.isMember'),
  setRule: pattern<DecisionRuleCommand, DecisionRuleAnswer>('rooms.rule'),
  askHoldouts: pattern<RoomBatchCommand, HoldoutRound>('rooms.holdouts.ask'),
  answerHoldout: pattern<HoldoutAnswerCommand, HoldoutAnswer>('rooms.holdouts.answer'),
  drawPick: pattern<RoomBatchCommand, DrawnPick>('rooms.pick'),
  sharePlan: pattern<SharePlanCommand, SharePlanAnswer>('rooms.plan.share'),
  plan: pattern<PlanQuery, PlanView>('rooms.plan.get'),
  history: pattern<HistoryCommand, HistoryPage>('rooms.history'),
  recentPicks: pattern<UserScoped, RecentPicks>('rooms.recentPicks'),
  limits: pattern<RoomCaller, LimitsAnswer>('rooms.limits.get'),
  setLimits: pattern<SetLimitsCommand, LimitsAnswer>('rooms.limits.set'),
  groups: pattern<UserScoped, GroupsAnswer>('rooms.groups.list'),
  saveGroup: pattern<SaveGroupCommand, SavedGroup>('rooms.groups.save'),
  deleteGroup: pattern<GroupCommand, { deleted: true }>('rooms.groups.delete'),
  removeGroupMember: pattern<GroupMemberCommand, SavedGroup | { left: true }>('rooms.groups.removeMember'),
  startGroup: pattern<StartGroupCommand, WithMemberToken<CreateRoomAnswer>>('rooms.groups.start'),
  invitations: pattern<UserScoped, InvitationsAnswer>('rooms.invitations.list'),
  dismissInvitation: pattern<InvitationCommand, { dismissed: true }>('rooms.invitations.dismiss'),
  pushKey: pattern<Empty, PushKeyAnswer>('rooms.push.key'),
  pushSubscribe: pattern<PushSubscribeCommand, PushSubscribed>('rooms.push.subscribe'),
} as const;

export const BILLING = {
  health: pattern<Empty, ServiceHealthReport>('billing.health'),
  createCheckout: pattern<CreateCheckoutCommand, CheckoutAnswer>('billing.checkout.create'),
  discardCustomer: pattern<UserScoped, void>('billing.customer.discard'),
  entitlement: pattern<UserScoped, Entitlement>('billing.entitlement'),
  stripeInformation: pattern<UserScoped, StripeInformation>('billing.stripeInformation'),
  webhook: pattern<StripeWebhookCommand, string>('billing.webhook'),
  localCheckout: pattern<LocalCheckoutAccess, LocalCheckoutView>('billing.localCheckout.get'),
  completeLocalCheckout: pattern<LocalCheckoutAccess, Redirect>('billing.localCheckout.complete'),
  cancelLocalCheckout: pattern<LocalCheckoutAccess, Redirect>('billing.localCheckout.cancel'),
  cancelLocalSubscription: pattern<UserScoped, Redirect>('billing.localPortal.cancel'),
} as const;

export const PLACES = {
  health: pattern<Empty, ServiceHealthReport>('places.health'),
  geocode: pattern<GeocodeQueryDto, GeocodeAnswer>('places.geocode'),
  search: pattern<PlacesSearchDto, PlacesAnswer>('places.search'),
  photo: pattern<PhotoQueryDto, PhotoAnswer>('places.photo'),
  types: pattern<Empty, PlaceTypesAnswer>('places.types'),
} as const;

export const HEALTH_PATTERNS: Record<ServiceName, Pattern<Empty, ServiceHealthReport>> = {
  auth: AUTH.health,
  rooms: ROOMS.health,
  billing: BILLING.health,
  places: PLACES.health,
};

/** The service that owns a pattern: the part before the first dot. */
export function serviceOfPattern(pattern: string): string {
  const dot = pattern.indexOf('.');
  return dot === -1 ? pattern : pattern.slice(0, dot);
}
