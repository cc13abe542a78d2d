import type {
  AccessTokenPayload,
  FeedbackDto,
  LoginAnswer,
  LoginDto,
  OutboxMessage,
  RegisterDto,
  RequestPasswordResetDto,
  ResetPasswordWithTokenDto,
  SessionCheck,
  UpdateMeDto,
  WireUser,
} from './auth';
import type {
  CheckoutAnswer,
  Entitlement,
  LocalCheckoutAccess,
  LocalCheckoutView,
  StripeInformation,
  SubscribeDto,
} from './billing';
import type { ServiceHealthReport } from './health';
import type {
  GeocodeAnswer,
  GeocodeQueryDto,
  NearbySearchDto,
  PlacesAnswer,
  PlaceTypesAnswer,
} from './places';
import type { Plan } from './plans';
import type {
  CreateRoomAnswer,
  CreateRoomDto,
  JoinRoomAnswer,
  JoinRoomDto,
  NextBatchAnswer,
  NextBatchDto,
  RoomSnapshot,
  StartRoomDto,
  VoteDto,
} from './rooms';

/**
 * Every message pattern and event name the services exchange, written once.
 * A pattern is `<service>.<action>`: the transport routes a request to the stream of the service named
 * before the first dot, so a pattern's prefix must be one of SERVICE_NAMES.
 */
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
type UserScoped = { userId: string };
type WithBody<B> = { body: B };
type Message = { message: string };
type Redirect = { redirect: string };

/** A member or the host acting in a room, as the gateway established it from their token. */
export interface RoomCaller {
  roomId: string;
  userId: string;
  /** The client's Idempotency-Key (a UUID), when it sent one. */
  idempotencyKey?: string;
}

/** Answers that carry a room member token, for the gateway's httpOnly cookie only. */
type WithMemberToken<A> = A & { memberToken: string };

export const AUTH = {
  health: pattern<Empty, ServiceHealthReport>('auth.health'),
  register: pattern<WithBody<RegisterDto> & { ip?: string }, CheckoutAnswer>('auth.register'),
  login: pattern<WithBody<LoginDto>, LoginAnswer>('auth.login'),
  verify: pattern<UserScoped, AccessTokenPayload>('auth.verify'),
  checkSession: pattern<SessionCheck, { live: boolean }>('auth.session.check'),
  logout: pattern<SessionCheck, Message>('auth.logout'),
  subscribe: pattern<UserScoped & WithBody<SubscribeDto>, CheckoutAnswer>('auth.subscribe'),
  requestPasswordReset: pattern<WithBody<RequestPasswordResetDto>, Message>('auth.password.requestReset'),
  resetPassword: pattern<WithBody<ResetPasswordWithTokenDto>, Message>('auth.password.reset'),
  getMe: pattern<UserScoped, WireUser>('auth.me.get'),
  updateMe: pattern<UserScoped & WithBody<UpdateMeDto>, WireUser>('auth.me.update'),
  feedback: pattern<WithBody<FeedbackDto>, Message>('auth.feedback'),
  outbox: pattern<Empty, OutboxMessage[]>('auth.outbox'),
} as const;

export const ROOMS = {
  health: pattern<Empty, ServiceHealthReport>('rooms.health'),
  create: pattern<
    WithBody<CreateRoomDto> & { accountId: string; idempotencyKey?: string },
    WithMemberToken<CreateRoomAnswer>
  >('rooms.create'),
  join: pattern<
    WithBody<JoinRoomDto> & { accountId?: string; cookieUserId?: string; idempotencyKey?: string },
    WithMemberToken<JoinRoomAnswer>
  >('rooms.join'),
  leave: pattern<RoomCaller, { left: true }>('rooms.leave'),
  start: pattern<RoomCaller & WithBody<StartRoomDto>, PlacesAnswer>('rooms.start'),
  vote: pattern<RoomCaller & WithBody<VoteDto>, { voted: true; usersVoted: string[] }>('rooms.vote'),
  nextBatch: pattern<RoomCaller & WithBody<NextBatchDto>, NextBatchAnswer>('rooms.nextBatch'),
  snapshot: pattern<RoomCaller, RoomSnapshot>('rooms.snapshot'),
  isMember: pattern<RoomCaller, { member: boolean }>('rooms.isMember'),
} as const;

export const BILLING = {
  health: pattern<Empty, ServiceHealthReport>('billing.health'),
  createCheckout: pattern<UserScoped & { email: string; plan: Plan }, CheckoutAnswer>(
    'billing.checkout.create',
  ),
  discardCustomer: pattern<UserScoped, void>('billing.customer.discard'),
  entitlement: pattern<UserScoped, Entitlement>('billing.entitlement'),
  stripeInformation: pattern<UserScoped, StripeInformation>('billing.stripeInformation'),
  webhook: pattern<{ rawBody: string; signature: string }, string>('billing.webhook'),
  localCheckout: pattern<LocalCheckoutAccess, LocalCheckoutView>('billing.localCheckout.get'),
  completeLocalCheckout: pattern<LocalCheckoutAccess, Redirect>('billing.localCheckout.complete'),
  cancelLocalCheckout: pattern<LocalCheckoutAccess, Redirect>('billing.localCheckout.cancel'),
  cancelLocalSubscription: pattern<UserScoped, Redirect>('billing.localPortal.cancel'),
} as const;

export const PLACES = {
  health: pattern<Empty, ServiceHealthReport>('places.health'),
  geocode: pattern<GeocodeQueryDto, GeocodeAnswer>('places.geocode'),
  search: pattern<NearbySearchDto, PlacesAnswer>('places.search'),
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
