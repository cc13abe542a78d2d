import jwt from 'jsonwebtoken';
import { createSecretKey, KeyObject } from 'node:crypto';

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

const keys = new Map<string, KeyObject>();
/**
 * The secret as a KeyObject, made once. Given a string, jsonwebtoken builds a new KeyObject on every sign
 * and verify, which profiling showed as the largest single cost of a join.
 */
export function secretKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

export function signMemberToken(claims: RoomMemberClaims, secret: string): string {
  return jwt.sign(claims, secretKey(secret), { audience: MEMBER, expiresIn: LIFETIME, algorithm: 'HS256' });
}

export function signHostToken(claims: RoomHostClaims, secret: string): string {
  return jwt.sign(claims, secretKey(secret), { audience: HOST, expiresIn: LIFETIME, algorithm: 'HS256' });
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
    return jwt.verify(token, secretKey(secret), { audience, algorithms: ['HS256'] }) as T;
  } catch {
    return null;
  }
}
