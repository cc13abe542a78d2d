import jwt from 'jsonwebtoken';

/**
 * Tokens that bind a person to one room, signed with JWT_SECRET. The member token lives in an httpOnly
 * cookie set on create/join (so nobody votes or leaves as someone else); the host token is the bearer
 * token the SPEC's create call answers, needed for start and next-batch.
 */
export interface RoomMemberClaims {
  roomId: string;
  code: string;
  userId: string;
  userName: string;
}

export interface RoomHostClaims {
  roomId: string;
  code: string;
  userId: string;
}

const MEMBER = 'forkvote:room-member';
const HOST = 'forkvote:room-host';
const LIFETIME = '24h';

export const ROOM_COOKIE = 'fv_room';

export function signMemberToken(claims: RoomMemberClaims, secret: string): string {
  return jwt.sign(claims, secret, { audience: MEMBER, expiresIn: LIFETIME, algorithm: 'HS256' });
}

export function signHostToken(claims: RoomHostClaims, secret: string): string {
  return jwt.sign(claims, secret, { audience: HOST, expiresIn: LIFETIME, algorithm: 'HS256' });
}

export function verifyMemberToken(token: string | undefined, secret: string): RoomMemberClaims | null {
  return verify<RoomMemberClaims>(token, secret, MEMBER);
}

export function verifyHostToken(token: string | undefined, secret: string): RoomHostClaims | null {
  return verify<RoomHostClaims>(token, secret, HOST);
}

function verify<T>(token: string | undefined, secret: string, audience: string): T | null {
  if (!token) return null;
  try {
    return jwt.verify(token, secret, { audience, algorithms: ['HS256'] }) as T;
  } catch {
    return null;
  }
}
