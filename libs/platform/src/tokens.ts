import jwt from 'jsonwebtoken';
import { createHash, createSecretKey, hkdfSync, KeyObject } from 'node:crypto';

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
   * The claims of a valid, unexpired token of `kind`; null for anything else, whatever its bytes (never
   * throws). The key is picked by the header's key id; the library checks the algorithm, the signature, the
   * kind's audience and the expiry (which must be there).
   */
  verify<T>(kind: TokenKind, token: string | undefined): T | null {
    if (!token) return null;
    const key = this.keyFor(kind, token);
    if (!key) return null;
    try {
      const claims = jwt.verify(token, key, { algorithms: ['HS256'], audience: TOKEN_AUDIENCE[kind] });
      // Every token we sign expires: one without `exp` was not made by us.
      return typeof claims === 'object' && typeof claims.exp === 'number' ? (claims as T) : null;
    } catch {
      return null;
    }
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
