import jwt from 'jsonwebtoken';
import { createHash, createHmac, createSecretKey, hkdfSync, KeyObject, timingSafeEqual } from 'node:crypto';

/**
 * The three kinds of token ForkVote signs. Each has its own audience and its own key, derived from
 * JWT_SECRET with HKDF, so a token of one kind can never pass as another: a room host token sent as a
 * session is refused by its key id before its claims are read.
 *
 * - session: the login session (httpOnly cookie or bearer), signed by auth, verified by the gateway;
 * - room-member: binds a browser to one room as one user (httpOnly cookie set on create and join);
 * - room-host: the bearer token the SPEC's create call answers, needed for start and next-batch;
 * - login-device: marks a browser that logged in to an account before, so guessing by strangers at that
 *   account never slows its owner down there (see the gateway's login throttle).
 */
export type TokenKind = 'session' | 'room-member' | 'room-host' | 'login-device';

export const TOKEN_AUDIENCE: Record<TokenKind, string> = {
  session: 'forkvote:session',
  'room-member': 'forkvote:room-member',
  'room-host': 'forkvote:room-host',
  'login-device': 'forkvote:login-device',
};

interface SigningKey {
  kid: string;
  key: KeyObject;
}

function deriveKey(secret: string, kind: TokenKind): SigningKey {
  const bytes = Buffer.from(hkdfSync('sha256', secret, 'forkvote-token-keys-v1', kind, 32));
  // The key id names the key without revealing it: a verifier picks the key (current or previous) by it.
  const kid = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { kid, key: createSecretKey(bytes) };
}

/**
 * Signs and verifies every kind of token with keys derived from JWT_SECRET; tokens signed with
 * JWT_SECRET_PREVIOUS still verify, so a secret can be rotated without logging everyone out.
 * Keys are derived once per process (KeyObjects: jsonwebtoken would otherwise rebuild one per call).
 */
export class TokenKeys {
  private readonly current = new Map<TokenKind, SigningKey>();
  /** kid → key, per kind: the current key and, during a rotation, the previous one. */
  private readonly verifying = new Map<TokenKind, Map<string, KeyObject>>();

  constructor(secret: string, previousSecret = '') {
    for (const kind of Object.keys(TOKEN_AUDIENCE) as TokenKind[]) {
      const key = deriveKey(secret, kind);
      this.current.set(kind, key);
      const byKid = new Map([[key.kid, key.key]]);
      if (previousSecret) {
        const previous = deriveKey(previousSecret, kind);
        byKid.set(previous.kid, previous.key);
      }
      this.verifying.set(kind, byKid);
    }
  }

  sign(kind: TokenKind, claims: object, expiresInSeconds: number): string {
    const { kid, key } = this.current.get(kind)!;
    return jwt.sign(claims, key, {
      algorithm: 'HS256',
      audience: TOKEN_AUDIENCE[kind],
      expiresIn: expiresInSeconds,
      keyid: kid,
    });
  }

  /**
   * The key that verifies `token` as `kind`, or null when its key id is not one of that kind's keys. Reads
   * only the header segment: jwt.verify decodes the whole token once more anyway, on every vote and join.
   */
  keyFor(kind: TokenKind, token: string): KeyObject | null {
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    let kid: unknown;
    try {
      kid = (JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString()) as { kid?: unknown }).kid;
    } catch {
      return null;
    }
    return (typeof kid === 'string' && this.verifying.get(kind)!.get(kid)) || null;
  }

  /**
   * The claims of a valid, unexpired token of `kind`; null for anything else (never throws). Checked here
   * rather than by jsonwebtoken, whose verify was a seventh of the gateway's CPU for a vote (it decodes the
   * token twice, builds a stream-shaped verifier and validates its own options on every call): an HS256
   * token of ours is three segments, a header naming HS256 and one of the kind's key ids, a signature that
   * is exactly the HMAC of the first two, the kind's audience, and an expiry in the future (and a not-before,
   * if any, in the past). Signing stays with jsonwebtoken, and sessions with passport-jwt.
   */
  verify<T>(kind: TokenKind, token: string | undefined): T | null {
    if (!token) return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [head, body, signature] = parts;
    const header = decodeSegment(head);
    if (header?.alg !== 'HS256' || typeof header.kid !== 'string') return null;
    const key = this.verifying.get(kind)!.get(header.kid);
    if (!key) return null;
    const expected = createHmac('sha256', key).update(`${head}.${body}`).digest('base64url');
    // The exact text: a signature that only decodes to the same bytes (padding, stray characters) is refused.
    if (
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
    )
      return null;
    const claims = decodeSegment(body);
    if (!claims) return null;
    const audience = TOKEN_AUDIENCE[kind];
    if (Array.isArray(claims.aud) ? !claims.aud.includes(audience) : claims.aud !== audience) return null;
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp !== 'number' || now >= claims.exp) return null;
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || now < claims.nbf)) return null;
    return claims as T;
  }
}

/** A token segment's JSON object, or null if it is not one. */
function decodeSegment(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString());
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

type SecretsConfig = { JWT_SECRET: string; JWT_SECRET_PREVIOUS: string };
const keysByConfig = new WeakMap<SecretsConfig, TokenKeys>();

/** The process's TokenKeys for its (validated, unchanging) configuration, derived once per config object. */
export function tokenKeys(config: SecretsConfig): TokenKeys {
  let keys = keysByConfig.get(config);
  if (!keys) keysByConfig.set(config, (keys = new TokenKeys(config.JWT_SECRET, config.JWT_SECRET_PREVIOUS)));
  return keys;
}
