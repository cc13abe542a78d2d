import { ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ROOM_MESSAGES } from '@forkvote/contracts';
import {
  ROOM_COOKIE,
  RoomHostClaims,
  RoomMemberClaims,
  verifyHostToken,
  verifyMemberToken,
} from '@forkvote/platform';
import type { CookieOptions, Request, Response } from 'express';
import { sessionToken } from '../auth/session';
import { GatewayConfig } from '../gateway.config';

/** Like SessionGuard, but lets anonymous requests through with no user (join works for guests too). */
@Injectable()
export class OptionalSessionGuard extends AuthGuard('session') {
  override handleRequest<T>(_err: unknown, user: T): T {
    return user ?? (null as T);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    // A guest brings no session token at all: nothing for passport to check.
    if (!sessionToken(context.switchToHttp().getRequest<Request>())) return true;
    try {
      return (await super.canActivate(context)) as boolean;
    } catch {
      return true;
    }
  }
}

function cookieOptions(config: GatewayConfig): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.NODE_ENV === 'production',
    path: '/',
    maxAge: 24 * 3600 * 1000,
  };
}

export function setRoomCookie(res: Response, config: GatewayConfig, memberToken: string): void {
  res.cookie(ROOM_COOKIE, memberToken, cookieOptions(config));
}

export function clearRoomCookie(res: Response, config: GatewayConfig): void {
  const { maxAge: _, ...options } = cookieOptions(config);
  res.clearCookie(ROOM_COOKIE, options);
}

/** The room this browser joined, from its httpOnly room cookie, or null. */
export function roomMember(req: Request, config: GatewayConfig): RoomMemberClaims | null {
  return verifyMemberToken(
    (req.cookies as Record<string, string> | undefined)?.[ROOM_COOKIE],
    config.JWT_SECRET,
  );
}

/**
 * The caller must hold this room's cookie, and (when given) be the user they claim to be: nobody votes,
 * leaves or listens as someone else.
 */
export function requireMember(
  req: Request,
  config: GatewayConfig,
  waitingRoomId: string,
  userId?: string,
): RoomMemberClaims {
  const member = roomMember(req, config);
  if (!member || member.code !== waitingRoomId.trim().toUpperCase())
    throw new ForbiddenException(ROOM_MESSAGES.notMember);
  if (userId !== undefined && member.userId !== userId)
    throw new ForbiddenException(ROOM_MESSAGES.voteForYourself);
  return member;
}

/** Start and next-batch need the host's bearer token for this room (SPEC §6). */
export function requireHost(req: Request, config: GatewayConfig, waitingRoomId?: string): RoomHostClaims {
  const header = req.headers.authorization ?? '';
  const host = verifyHostToken(header.startsWith('Bearer ') ? header.slice(7) : undefined, config.JWT_SECRET);
  if (!host) throw new UnauthorizedException(ROOM_MESSAGES.hostOnly);
  if (waitingRoomId !== undefined && host.code !== waitingRoomId.trim().toUpperCase()) {
    throw new ForbiddenException(ROOM_MESSAGES.hostOnly);
  }
  return host;
}
