/**
 * Every message pattern and event name the services exchange, written once.
 * A pattern is `<service>.<action>`: the transport routes a request to the stream of the service named
 * before the first dot, so a pattern's prefix must be one of SERVICE_NAMES.
 */
export const SERVICE_NAMES = ['auth', 'rooms', 'billing', 'places'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export const AUTH = {
  health: 'auth.health',
  register: 'auth.register',
  login: 'auth.login',
  verify: 'auth.verify',
  checkSession: 'auth.session.check',
  logout: 'auth.logout',
  subscribe: 'auth.subscribe',
  requestPasswordReset: 'auth.password.requestReset',
  resetPassword: 'auth.password.reset',
  getMe: 'auth.me.get',
  updateMe: 'auth.me.update',
  feedback: 'auth.feedback',
  outbox: 'auth.outbox',
} as const;

export const ROOMS = {
  health: 'rooms.health',
  create: 'rooms.create',
  join: 'rooms.join',
  leave: 'rooms.leave',
  start: 'rooms.start',
  vote: 'rooms.vote',
  nextBatch: 'rooms.nextBatch',
  snapshot: 'rooms.snapshot',
  isMember: 'rooms.isMember',
} as const;

export const BILLING = {
  health: 'billing.health',
  createCheckout: 'billing.checkout.create',
  discardCustomer: 'billing.customer.discard',
  entitlement: 'billing.entitlement',
  stripeInformation: 'billing.stripeInformation',
  webhook: 'billing.webhook',
  localCheckout: 'billing.localCheckout.get',
  completeLocalCheckout: 'billing.localCheckout.complete',
  cancelLocalCheckout: 'billing.localCheckout.cancel',
  cancelLocalSubscription: 'billing.localPortal.cancel',
} as const;

export const PLACES = {
  health: 'places.health',
  geocode: 'places.geocode',
  search: 'places.search',
  types: 'places.types',
} as const;

export const HEALTH_PATTERNS: Record<ServiceName, string> = {
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
