import { HttpException, HttpStatus, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { MESSAGES } from '@forkvote/contracts';
import { REDIS, tokenKeys } from '@forkvote/platform';
import type { CookieOptions, Request, Response } from 'express';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { GatewayConfig } from '../gateway.config';

/**
 * Failed logins, counted so that guessing is slow and strangers cannot lock the owner out:
 * - per address: FAILURES_PER_ADDRESS in the window, then 429 for that address only;
 * - per (account, address): FAILURES_PER_ACCOUNT_AND_ADDRESS, then 429 for that pair only, so an attacker
 *   elsewhere never blocks the owner's own address;
 * - per account, from every address together: past ACCOUNT_BACKOFF_AFTER failures, each further attempt
 *   waits 2^(n − threshold) s after the last failure, at most ACCOUNT_BACKOFF_MAX_SECONDS. A browser that
 *   logged in to the account before (it holds a signed device cookie) skips this wait: the owner is never
 *   locked out by someone else's guessing, and is slowed at worst by the capped wait on a new device.
 * Only failures count, and a success clears its pair and the account's count. Numbers scale with
 * RATE_LIMIT_SCALE (0 turns throttling off); docs/decisions.md records them.
 */
export const LOGIN_LIMITS = {
  windowSeconds: 900,
  failuresPerAddress: 30,
  failuresPerAccountAndAddress: 10,
  accountBackoffAfter: 20,
  accountBackoffMaxSeconds: 300,
};

export const DEVICE_COOKIE = 'fv_device';
const DEVICE_LIFETIME_SECONDS = 365 * 86_400;

/** Hashed, so a key never names an email address in Redis. */
const accountId = (email: string) => createHash('sha256').update(email).digest('base64url').slice(0, 22);

@Injectable()
export class LoginThrottle {
  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  private get scale(): number {
    return this.config.RATE_LIMIT_SCALE;
  }

  private keys(email: string, ip: string) {
    const prefix = `${this.config.REDIS_PREFIX}:login-failures`;
    const account = accountId(email);
    return {
      address: `${prefix}:ip:${ip}`,
      pair: `${prefix}:pair:${account}:${ip}`,
      account: `${prefix}:account:${account}`,
    };
  }

  /** Throws 429 (with Retry-After) when this attempt must wait; 503 when the counters cannot be read. */
  async admit(email: string, req: Request, res: Response): Promise<void> {
    if (this.scale === 0) return;
    const ip = req.ip ?? 'unknown';
    const keys = this.keys(email, ip);
    // Three keys in three slots on Redis Cluster, so no transaction: each read is one command, and all of
    // them leave in one write (auto-pipelining).
    const [address, addressTtl, pair, pairTtl, account] = await this.guard(() =>
      Promise.all([
        this.redis.get(keys.address),
        this.redis.pttl(keys.address),
        this.redis.get(keys.pair),
        this.redis.pttl(keys.pair),
        this.redis.hmget(keys.account, 'count', 'last'),
      ]),
    );

    const limit = (n: number) => Math.ceil(n * this.scale);
    const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
    if (Number(address ?? 0) >= limit(LOGIN_LIMITS.failuresPerAddress))
      this.tooMany(res, seconds(addressTtl));
    if (Number(pair ?? 0) >= limit(LOGIN_LIMITS.failuresPerAccountAndAddress))
      this.tooMany(res, seconds(pairTtl));

    const [count, last] = (account ?? []).map(Number);
    const over = (count || 0) - limit(LOGIN_LIMITS.accountBackoffAfter);
    if (over >= 0 && !this.knownDevice(req, email)) {
      const waitMs = Math.min(2 ** over, LOGIN_LIMITS.accountBackoffMaxSeconds) * 1000;
      const remaining = (last || 0) + waitMs - Date.now();
      if (remaining > 0) this.tooMany(res, seconds(remaining));
    }
  }

  async failed(email: string, req: Request): Promise<void> {
    if (this.scale === 0) return;
    const keys = this.keys(email, req.ip ?? 'unknown');
    const window = LOGIN_LIMITS.windowSeconds;
    // One transaction per key: on Redis Cluster a transaction's keys must share a slot.
    await this.guard(() =>
      Promise.all([
        this.redis.multi().incr(keys.address).expire(keys.address, window, 'NX').exec(),
        this.redis.multi().incr(keys.pair).expire(keys.pair, window, 'NX').exec(),
        this.redis
          .multi()
          .hincrby(keys.account, 'count', 1)
          .hset(keys.account, 'last', Date.now())
          // The account's count lives while failures keep coming, then lapses a window after the last.
          .expire(keys.account, window)
          .exec(),
      ]),
    );
  }

  /** Clears the pair and the account's count, and remembers this browser as one the owner uses. */
  async succeeded(email: string, req: Request, res: Response): Promise<void> {
    res.cookie(
      DEVICE_COOKIE,
      tokenKeys(this.config).sign('login-device', { sub: accountId(email) }, DEVICE_LIFETIME_SECONDS),
      {
        ...this.deviceCookieOptions(),
        maxAge: DEVICE_LIFETIME_SECONDS * 1000,
      },
    );
    if (this.scale === 0) return;
    const keys = this.keys(email, req.ip ?? 'unknown');
    await this.guard(() => Promise.all([this.redis.del(keys.pair), this.redis.del(keys.account)]));
  }

  private knownDevice(req: Request, email: string): boolean {
    const token = (req.cookies as Record<string, string> | undefined)?.[DEVICE_COOKIE];
    return tokenKeys(this.config).verify<{ sub: string }>('login-device', token)?.sub === accountId(email);
  }

  private deviceCookieOptions(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.NODE_ENV === 'production',
      path: '/api/v1/auth',
    };
  }

  private tooMany(res: Response, retryAfterSeconds: number): never {
    res.setHeader('Retry-After', String(retryAfterSeconds));
    throw new HttpException(MESSAGES.tooManyAttempts, HttpStatus.TOO_MANY_REQUESTS);
  }

  /** Counters that cannot be reached mean 503: never a login let through unthrottled, never a 500. */
  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch {
      throw new ServiceUnavailableException(MESSAGES.serviceUnavailable);
    }
  }
}
