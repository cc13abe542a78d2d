import { createSigner, createVerifier } from 'fast-jwt';
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
  bytes: Buffer;
  key: KeyObject;
}

function deriveKey(secret: string, kind: TokenKind): SigningKey {
  const bytes = Buffer.from(hkdfSync('sha256', secret, 'forkvote-token-keys-v1', kind, 32));
  // The key id names the key without revealing it: a verifier picks the key (current or previous) by it.
  const kid = createHash('sha256').update(bytes).digest('base64url').slice(0, 16);
  return { kid, bytes, key: createSecretKey(bytes) };
}

type Verify = (token: string) => Record<string, unknown>;

/**
 * fast-jwt's verifier for one key of one kind: HS256 only, the kind's audience, an expiry that must be
 * there. It keeps the claims of tokens it has verified (until they expire): a member's room cookie comes
 * with every vote.
 */
const verifierFor = (kind: TokenKind, key: SigningKey): Verify =>
  createVerifier({
    key: key.bytes,
    algorithms: ['HS256'],
    allowedAud: TOKEN_AUDIENCE[kind],
    requiredClaims: ['exp'],
    cache: 10_000,
  }) as Verify;

/**
 * Signs and verifies every kind of token with keys derived from JWT_SECRET, through fast-jwt; tokens signed
 * with JWT_SECRET_PREVIOUS still verify, so a secret can be rotated without logging everyone out. Keys,
 * signers and verifiers are made once per process. Sessions are verified by passport-jwt with the keys
 * `keyFor` hands it.
 */
export class TokenKeys {
  private readonly signers = new Map<TokenKind, (claims: object) => string>();
  /** kid → key, per kind: the current key and, during a rotation, the previous one. */
  private readonly verifying = new Map<TokenKind, Map<string, { key: KeyObject; verify: Verify }>>();

  constructor(secret: string, previousSecret = '') {
    for (const kind of Object.keys(TOKEN_AUDIENCE) as TokenKind[]) {
      const key = deriveKey(secret, kind);
      this.signers.set(
        kind,
        createSigner({ key: key.bytes, algorithm: 'HS256', kid: key.kid, aud: TOKEN_AUDIENCE[kind] }),
      );
      const byKid = new Map([[key.kid, { key: key.key, verify: verifierFor(kind, key) }]]);
      if (previousSecret) {
        const previous = deriveKey(previousSecret, kind);
        byKid.set(previous.kid, { key: previous.key, verify: verifierFor(kind, previous) });
      }
      this.verifying.set(kind, byKid);
    }
  }

  sign(kind: TokenKind, claims: object, expiresInSeconds: number): string {
    const exp = Math.floor(Date.now() / 1000) + expiresInSeconds;
    return this.signers.get(kind)!({ ...claims, exp });
  }

  /** The key that verifies `token` as `kind` (for passport-jwt), or null when its key id is not one of that kind's. */
  keyFor(kind: TokenKind, token: string): KeyObject | null {
    return this.keyEntry(kind, token)?.key ?? null;
  }

  /** The kind's key named by the token's header (`kid`), read from the header segment alone. */
  private keyEntry(kind: TokenKind, token: string): { key: KeyObject; verify: Verify } | null {
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
   * throws). The key is picked by the header's key id; fast-jwt checks the algorithm, the signature, the
   * kind's audience and the expiry (which must be there).
   */
  verify<T>(kind: TokenKind, token: string | undefined): T | null {
    if (!token) return null;
    const entry = this.keyEntry(kind, token);
    if (!entry) return null;
    try {
      return entry.verify(token) as T;
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
