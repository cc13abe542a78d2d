import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
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

/** A room token is a JWT: base64url parts and dots, nothing a cookie value has to encode. */
const PLAIN_COOKIE_VALUE = /^[\w.-]+$/;

/** The Expires date a day from now, made once a second (it is written to the second). */
let expires = { second: NaN, text: '' };
function roomCookieExpires(): string {
  const at = Date.now() + ROOM_COOKIE_SECONDS * 1000;
  const second = Math.floor(at / 1000);
  if (second !== expires.second) expires = { second, text: new Date(at).toUTCString() };
  return expires.text;
}

/**
 * Sets the room cookie with the header `res.cookie` writes for `cookieOptions` (the same attributes, in the
 * same order), made here from parts that do not change: every join and create sets it, and `res.cookie`
 * cost 9 µs of a join's CPU (it copies the options, URI-encodes and checks the 300-character token, and
 * makes a Date). Anything but a plain token still goes through `res.cookie`.
 */
export function setRoomCookie(res: Response, config: GatewayConfig, memberToken: string): void {
  if (!PLAIN_COOKIE_VALUE.test(memberToken)) {
    res.cookie(ROOM_COOKIE, memberToken, cookieOptions(config));
    return;
  }
  const secure = config.NODE_ENV === 'production' ? '; Secure' : '';
  res.append(
    'Set-Cookie',
    `${ROOM_COOKIE}=${memberToken}; Max-Age=${ROOM_COOKIE_SECONDS}; Path=/; Expires=${roomCookieExpires()}; HttpOnly${secure}; SameSite=Lax`,
  );
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

/**
 * The caller must hold this room's cookie (any room's, without `waitingRoomId`), and (when given) be the user they claim to be: nobody votes,
 * leaves or listens as someone else. No cookie, or another room's, is 403; a cookie that is no valid room
 * member token (forged, expired, or another kind of token) is 401, like every other verifier's refusal.
 */
export function requireMember(
  req: Request,
  config: GatewayConfig,
  waitingRoomId?: string,
  userId?: string,
): RoomMemberClaims {
  const cookie = (req.cookies as Record<string, string> | undefined)?.[ROOM_COOKIE];
  const member = roomMember(req, config);
  if (cookie && !member) throw new UnauthorizedException(ROOM_MESSAGES.notMember);
  if (!member || (waitingRoomId !== undefined && member.code !== waitingRoomId.trim().toUpperCase()))
    throw new ForbiddenException(ROOM_MESSAGES.notMember);
  if (userId !== undefined && member.userId !== userId)
    throw new ForbiddenException(ROOM_MESSAGES.voteForYourself);
  return member;
}

/** The claims of the host's bearer token, or null without a valid one. */
export function hostRoom(req: Request, config: GatewayConfig): RoomHostClaims | null {
  const header = req.headers.authorization ?? '';
  const bearer = header.startsWith('Bearer ') ? header.slice(7) : undefined;
  return tokenKeys(config).verify<RoomHostClaims>('room-host', bearer);
}

/** Start and next-batch need the host's bearer token for this room (SPEC §6). */
export function requireHost(req: Request, config: GatewayConfig, waitingRoomId?: string): RoomHostClaims {
  const host = hostRoom(req, config);
  if (!host) throw new UnauthorizedException(ROOM_MESSAGES.hostOnly);
  if (waitingRoomId !== undefined && host.code !== waitingRoomId.trim().toUpperCase()) {
    throw new ForbiddenException(ROOM_MESSAGES.hostOnly);
  }
  return host;
}
