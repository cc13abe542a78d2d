import { HttpException, HttpStatus, Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import { MESSAGES } from '@forkvote/contracts';
import { REDIS, tokenKeys } from '@forkvote/platform';
import type { CookieOptions, Request, Response } from 'express';
import Redis from 'ioredis';
import { createHash } from 'node:crypto';
import { GatewayConfig } from '../gateway.config';

/**
 * Login attempts, counted so that guessing is slow and strangers cannot lock the owner out:
 * - per address: FAILURES_PER_ADDRESS in the window, then 429 for that address only;
 * - per (account, address): FAILURES_PER_ACCOUNT_AND_ADDRESS, then 429 for that pair only, so an attacker
 *   elsewhere never blocks the owner's own address;
 * - per account, from every address together: past ACCOUNT_BACKOFF_AFTER failures, each further attempt
 *   waits 2^(n − threshold) s after the last failure, at most ACCOUNT_BACKOFF_MAX_SECONDS. A browser that
 *   logged in to the account before (it holds a signed device cookie) skips this wait: the owner is never
 *   locked out by someone else's guessing, and is slowed at worst by the capped wait on a new device.
 * Every attempt counts as it arrives; a success (or an answer that is no wrong password) gives it back and
 * clears its pair and the account's count. Numbers scale with
 * RATE_LIMIT_SCALE (0 turns throttling off); docs/adr/0024 records them.
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

/** The values of a transaction's replies; an error in any of them fails the whole read. */
function valuesOf(replies: [Error | null, unknown][] | null): unknown[] {
  if (!replies) throw new Error('The transaction was aborted');
  return replies.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}

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

  /**
   * Counts this attempt, then throws 429 (with Retry-After) when it is one too many; 503 when the counters
   * cannot be reached. Counted before the password is checked, each counter by one atomic increment, so
   * attempts sent at once are each given their own number: of a hundred sent together, no more than the
   * limit ever reach the password check. A success or an answer that is no wrong password gives the
   * attempt back (`succeeded`, `notCounted`).
   */
  async admit(email: string, req: Request, res: Response): Promise<void> {
    if (this.scale === 0) return;
    const keys = this.keys(email, req.ip ?? 'unknown');
    const window = LOGIN_LIMITS.windowSeconds;
    // Three keys in three slots on Redis Cluster: one transaction per key, all sent at once.
    const [address, pair, account] = await this.guard(() =>
      Promise.all([
        this.redis.multi().incr(keys.address).expire(keys.address, window, 'NX').pttl(keys.address).exec(),
        this.redis.multi().incr(keys.pair).expire(keys.pair, window, 'NX').pttl(keys.pair).exec(),
        this.redis
          .multi()
          .hincrby(keys.account, 'count', 1)
          .hget(keys.account, 'last')
          // The account's count lives while attempts keep coming, then lapses a window after the last.
          .expire(keys.account, window)
          .exec(),
      ]).then((replies) => replies.map(valuesOf)),
    );

    const limit = (n: number) => Math.ceil(n * this.scale);
    const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
    // A fixed window: attempts refused here count too, but never make the window longer.
    if (Number(address[0]) > limit(LOGIN_LIMITS.failuresPerAddress))
      await this.refused(keys.account, res, seconds(Number(address[2])));
    if (Number(pair[0]) > limit(LOGIN_LIMITS.failuresPerAccountAndAddress))
      await this.refused(keys.account, res, seconds(Number(pair[2])));

    // The attempts before this one.
    const count = Number(account[0]) - 1;
    const last = Number(account[1] ?? 0);
    const over = count - limit(LOGIN_LIMITS.accountBackoffAfter);
    if (over >= 0 && !this.knownDevice(req, email)) {
      const waitMs = Math.min(2 ** over, LOGIN_LIMITS.accountBackoffMaxSeconds) * 1000;
      const remaining = last + waitMs - Date.now();
      if (remaining > 0) await this.refused(keys.account, res, seconds(remaining));
    }
    await this.guard(() => this.redis.hset(keys.account, 'last', Date.now()));
  }

  /** Gives back an attempt that was answered with something other than a wrong password (a 503, say). */
  async notCounted(email: string, req: Request): Promise<void> {
    if (this.scale === 0) return;
    const keys = this.keys(email, req.ip ?? 'unknown');
    await Promise.allSettled([
      this.redis.decr(keys.address),
      this.redis.decr(keys.pair),
      this.redis.hincrby(keys.account, 'count', -1),
    ]);
  }

  /** Gives the attempt back, clears the pair and the account's count, and remembers this browser. */
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
    await this.guard(() =>
      Promise.all([this.redis.decr(keys.address), this.redis.del(keys.pair), this.redis.del(keys.account)]),
    );
  }

  /** An attempt refused by the account's back-off is not one the account counts; then 429. */
  private async refused(accountKey: string, res: Response, retryAfterSeconds: number): Promise<never> {
    await this.redis.hincrby(accountKey, 'count', -1).catch(() => undefined);
    this.tooMany(res, retryAfterSeconds);
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
