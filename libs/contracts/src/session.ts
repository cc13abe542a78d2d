import type { AccessTokenPayload } from './auth';

/**
 * Sent by the web app with verify-token on every load: a browser without a session is then answered 200
 * with ANONYMOUS_PAYLOAD instead of 401, so an anonymous visitor's page load logs no failed call. Without
 * it the call answers as the SPEC says (401 'Token verification failed').
 */
export const SESSION_OPTIONAL_HEADER = 'X-Session-Optional';

/** verify-token's answer to a browser without a live session that sent SESSION_OPTIONAL_HEADER: signed out. */
export const ANONYMOUS_PAYLOAD: AccessTokenPayload = {
  isAuthenticated: false,
  isAuthorized: false,
  userId: '',
  name: '',
  email: '',
  canCreateRooms: false,
  roles: [],
  subscriptionStatus: 'none',
  isGuest: false,
};
