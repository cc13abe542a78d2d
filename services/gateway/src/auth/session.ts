import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { isUUID } from 'class-validator';
import {
  AUTH,
  CHECKOUT_COOKIE,
  CheckoutAnswer,
  isRpcErrorBody,
  MESSAGES,
  SessionClaims,
  SESSION_OPTIONAL_HEADER,
  sessionKeys,
} from '@forkvote/contracts';
import { callService, REDIS, SERVICE_CLIENT, TOKEN_AUDIENCE, tokenKeys } from '@forkvote/platform';
import type { CookieOptions, Request, Response } from 'express';
import Redis from 'ioredis';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { GatewayConfig } from '../gateway.config';

export const SESSION_COOKIE = 'fv_session';

/** The session JWT of a request: the httpOnly cookie (browsers) or a bearer header (API clients), or null. */
export const sessionToken = ExtractJwt.fromExtractors([
  (req: Request) => (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE] ?? null,
  ExtractJwt.fromAuthHeaderAsBearerToken(),
]);

/** A session token's claims have this shape; anything else (another kind of token) is no session. */
function isSessionClaims(claims: unknown): claims is SessionClaims {
  const c = claims as Partial<SessionClaims> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.sub === 'string' &&
    isUUID(c.sub) &&
    typeof c.jti === 'string' &&
    isUUID(c.jti) &&
    typeof c.iat === 'number' &&
    typeof c.exp === 'number'
  );
}

/**
 * passport-jwt strategy: the session JWT comes from the httpOnly cookie (browsers) or a bearer header
 * (API clients). Only a session token verifies here: its key is the session key (by key id, current or
 * previous secret) and its audience the session's, so a room token is refused before its claims are read.
 * A valid signature is not enough: the session must still be live in auth's records (not logged out, not
 * voided by a password reset). Redis caches that answer; a miss asks auth, which reads PostgreSQL. If
 * neither can be reached the answer is 503, never 401: an outage must not look like a logout.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
  ) {
    const keys = tokenKeys(config);
    super({
      jwtFromRequest: sessionToken,
      secretOrKeyProvider: (_req, raw: string, done) => {
        const key = keys.keyFor('session', raw);
        // jsonwebtoken takes the KeyObject though passport-jwt's types only name string | Buffer.
        done(
          key ? null : new UnauthorizedException(MESSAGES.tokenVerificationFailed),
          (key ?? undefined) as unknown as Buffer,
        );
      },
      audience: TOKEN_AUDIENCE.session,
      algorithms: ['HS256'],
    });
  }

  async validate(claims: unknown): Promise<SessionClaims> {
    if (!isSessionClaims(claims)) throw new UnauthorizedException(MESSAGES.tokenVerificationFailed);
    let state: string | null;
    try {
      state = await this.redis.get(sessionKeys.state(this.config.REDIS_PREFIX, claims.jti));
    } catch {
      throw new ServiceUnavailableException(MESSAGES.serviceUnavailable);
    }
    if (state === null) {
      // Auth answers from PostgreSQL and refills the cache; a transport failure is a 503 body, rethrown.
      const answer = await callService(this.services, AUTH.checkSession, {
        jti: claims.jti,
        userId: claims.sub,
      });
      state = answer.live ? 'live' : 'revoked';
    }
    if (state !== 'live') throw new UnauthorizedException(MESSAGES.tokenVerificationFailed);
    return claims;
  }
}

/** An outage (503) passes through a guard as it is; any other failure to authenticate is a 401. */
function unavailable(err: unknown): unknown {
  if (err instanceof ServiceUnavailableException) return err;
  if (isRpcErrorBody(err) && err.statusCode === 503) return err;
  return null;
}

/** Lets a request through only with a live session; answers 401 'Token verification failed' otherwise. */
@Injectable()
export class SessionGuard extends AuthGuard('session') implements CanActivate {
  override handleRequest<T>(err: unknown, user: T): T {
    const outage = unavailable(err);
    if (outage) throw outage;
    if (err || !user) throw new UnauthorizedException(MESSAGES.tokenVerificationFailed);
    return user;
  }
}

/**
 * verify-token's guard: SessionGuard's answers, except that a browser that sends SESSION_OPTIONAL_HEADER
 * and holds no live session gets through with no user (the handler answers it as signed out).
 */
@Injectable()
export class VerifyTokenGuard extends AuthGuard('session') implements CanActivate {
  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (sessionOptional(req) && !sessionToken(req)) return true;
    return super.canActivate(context) as Promise<boolean>;
  }

  override handleRequest<T>(err: unknown, user: T, _info: unknown, context: ExecutionContext): T {
    const outage = unavailable(err);
    if (outage) throw outage;
    if (err || !user) {
      if (sessionOptional(context.switchToHttp().getRequest<Request>())) return null as T;
      throw new UnauthorizedException(MESSAGES.tokenVerificationFailed);
    }
    return user;
  }
}

const sessionOptional = (req: Request) => req.get(SESSION_OPTIONAL_HEADER) === '1';

/** Like SessionGuard, but lets anonymous requests through with no user (join works for guests too). */
@Injectable()
export class OptionalSessionGuard extends AuthGuard('session') {
  override handleRequest<T>(err: unknown, user: T): T {
    const outage = unavailable(err);
    if (outage) throw outage;
    return user || (null as T);
  }

  override canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    // A guest brings no session token at all: nothing for passport to check. Answered at once, not as a
    // promise, so Nest goes on without awaiting it (every guest's join comes this way).
    if (!sessionToken(context.switchToHttp().getRequest<Request>())) return true;
    return super.canActivate(context) as Promise<boolean>;
  }
}

/** The verified claims of the request's session. */
export const Session = createParamDecorator(
  (_: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<Request>().user as SessionClaims,
);

export function setSessionCookie(
  res: Response,
  config: GatewayConfig,
  token: string,
  persistentSeconds?: number,
): void {
  res.cookie(SESSION_COOKIE, token, {
    ...cookieOptions(config),
    ...(persistentSeconds ? { maxAge: persistentSeconds * 1000 } : {}),
  });
}

export function clearSessionCookie(res: Response, config: GatewayConfig): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

function cookieOptions(config: GatewayConfig): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: config.NODE_ENV === 'production', path: '/' };
}

/**
 * A local test-mode checkout answers a secret that completes it. It goes into an httpOnly cookie scoped
 * to the checkout pages, so only this browser (or the owner's session) can finish the purchase; the JSON
 * answer never carries it.
 */
export function keepCheckoutSecret(
  res: Response,
  config: GatewayConfig,
  answer: CheckoutAnswer,
): CheckoutAnswer {
  const { checkoutSecret, ...rest } = answer;
  if (checkoutSecret) {
    res.cookie(CHECKOUT_COOKIE, checkoutSecret, {
      ...cookieOptions(config),
      path: '/api/v1/billing/checkout',
      maxAge: 24 * 3600 * 1000,
    });
  }
  return rest;
}
