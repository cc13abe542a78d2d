import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { ROOM_MESSAGES, RoomHostClaims, RoomMemberClaims } from '@forkvote/contracts';
import { tokenKeys } from '@forkvote/platform';
import type { CookieOptions, Request, Response } from 'express';
import { GatewayConfig } from '../gateway.config';

/** The httpOnly cookie holding this browser's room-member token. */
const ROOM_COOKIE = 'fv_room';

/** A day, in the cookie's Max-Age. */
const ROOM_COOKIE_SECONDS = 24 * 3600;

function cookieOptions(config: GatewayConfig): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.NODE_ENV === 'production',
    path: '/',
    maxAge: ROOM_COOKIE_SECONDS * 1000,
  };
}

/** Sets the httpOnly room cookie that binds this browser to one room as one member. */
export function setRoomCookie(res: Response, config: GatewayConfig, memberToken: string): void {
  res.cookie(ROOM_COOKIE, memberToken, cookieOptions(config));
}

export function clearRoomCookie(res: Response, config: GatewayConfig): void {
  const { maxAge: _, ...options } = cookieOptions(config);
  res.clearCookie(ROOM_COOKIE, options);
}

/** The room this browser joined, from its httpOnly room cookie, or null. */
export function roomMember(req: Request, config: GatewayConfig): RoomMemberClaims | null {
  return tokenKeys(config).verify<RoomMemberClaims>(
    'room-member',
    (req.cookies as Record<string, string> | undefined)?.[ROOM_COOKIE],
  );
}

/** Who calls a room route, as a guard read it from their token: a member (room cookie) or the host (bearer). */
export interface RoomCaller {
  roomId: string;
  code: string;
  userId: string;
  /** A member's name as they joined (the event stream greets them with it); the host's token has none. */
  userName?: string;
  isHost: boolean;
}

type WithCaller = Request & { roomCaller?: RoomCaller };

/**
 * The caller must hold a room cookie: none is 403; one that is no valid room member token (forged,
 * expired, another kind of token, bent bytes) is 401, like every other verifier's refusal.
 */
export function memberOf(req: Request, config: GatewayConfig): RoomMemberClaims {
  const cookie = (req.cookies as Record<string, string> | undefined)?.[ROOM_COOKIE];
  const member = roomMember(req, config);
  if (cookie && !member) throw new UnauthorizedException(ROOM_MESSAGES.notMember);
  if (!member) throw new ForbiddenException(ROOM_MESSAGES.notMember);
  return member;
}

/** The claims of the host's bearer token, or null without a valid one. */
export function hostRoom(req: Request, config: GatewayConfig): RoomHostClaims | null {
  const header = req.headers.authorization ?? '';
  const bearer = header.startsWith('Bearer ') ? header.slice(7) : undefined;
  return tokenKeys(config).verify<RoomHostClaims>('room-host', bearer);
}

/** Routes a member calls (vote, leave, the event stream, current): the room cookie, read once, before any body. */
@Injectable()
export class RoomMemberGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<WithCaller>();
    const { roomId, code, userId, userName } = memberOf(req, this.config);
    req.roomCaller = { roomId, code, userId, userName, isHost: false };
    return true;
  }
}

/** Start, next-batch and nudge need the host's bearer token (SPEC §6): 401 without a valid one. */
@Injectable()
export class RoomHostGuard implements CanActivate {
  constructor(private readonly config: GatewayConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<WithCaller>();
    const host = hostRoom(req, this.config);
    if (!host) throw new UnauthorizedException(ROOM_MESSAGES.hostOnly);
    req.roomCaller = { roomId: host.roomId, code: host.code, userId: host.userId, isHost: true };
    return true;
  }
}

/** The caller a room guard established on this request, if one ran. */
export const roomCallerOf = (req: Request): RoomCaller | undefined => (req as WithCaller).roomCaller;

/** The caller a room guard established. */
export const Caller = createParamDecorator((_: unknown, context: ExecutionContext) =>
  roomCallerOf(context.switchToHttp().getRequest<Request>())!,
);

/**
 * The caller acts in the room the request names (a validated room code), and (when given) as the user it
 * names: nobody votes, leaves, listens or hosts as someone else.
 */
export function actsIn(caller: RoomCaller, waitingRoomId: string, userId?: string): RoomCaller {
  if (caller.code !== waitingRoomId) {
    throw new ForbiddenException(caller.isHost ? ROOM_MESSAGES.hostOnly : ROOM_MESSAGES.notMember);
  }
  if (userId !== undefined && caller.userId !== userId) {
    throw new ForbiddenException(ROOM_MESSAGES.voteForYourself);
  }
  return caller;
}
