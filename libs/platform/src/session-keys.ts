/**
 * Redis keys caching the state of a session (a login token), written by auth and read by every gateway
 * replica on each authenticated request. The record itself is auth's `sessions` table in PostgreSQL: a
 * missing key (evicted, expired, or a Redis that restarted empty) is asked of auth, never taken as live.
 */
export const sessionKeys = {
  /** 'live' or 'revoked'. */
  state: (prefix: string, jti: string) => `${prefix}:session:${jti}`,
};

/** How long a gateway trusts a cached 'live' answer before asking auth again. */
export const LIVE_SESSION_CACHE_SECONDS = 300;
