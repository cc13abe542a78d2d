import { CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { createParamDecorator } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { MESSAGES, SessionClaims } from '@forkvote/contracts';
import { REDIS, secretKey, sessionKeys } from '@forkvote/platform';
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

/**
 * passport-jwt strategy: the session JWT comes from the httpOnly cookie (browsers) or a bearer header
 * (API clients, the host's start/next-batch calls). A valid signature is not enough: the token must not
 * be revoked by logout, nor older than the user's last password reset.
 */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    super({
      jwtFromRequest: sessionToken,
      // jsonwebtoken takes a KeyObject (made once) though passport-jwt's types only name string | Buffer.
      secretOrKey: secretKey(config.JWT_SECRET) as unknown as Buffer,
      algorithms: ['HS256'],
    });
  }

  async validate(claims: SessionClaims): Promise<SessionClaims> {
    const prefix = this.config.REDIS_PREFIX;
    const [revoked, validAfter] = await this.redis.mget(
      sessionKeys.revoked(prefix, claims.jti),
      sessionKeys.validAfter(prefix, claims.sub),
    );
    if (revoked || (validAfter && claims.iat < Number(validAfter))) {
      throw new UnauthorizedException(MESSAGES.tokenVerificationFailed);
    }
    return claims;
  }
}

/** Lets a request through only with a live session; answers 401 'Token verification failed' otherwise. */
@Injectable()
export class SessionGuard extends AuthGuard('session') implements CanActivate {
  override handleRequest<T>(err: unknown, user: T): T {
    if (err || !user) throw new UnauthorizedException(MESSAGES.tokenVerificationFailed);
    return user;
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
