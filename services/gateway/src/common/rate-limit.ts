import {
  ExecutionContext,
  HttpException,
  HttpStatus,
  Injectable,
  ServiceUnavailableException,
  SetMetadata,
} from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerModule, ThrottlerOptions } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { MESSAGES } from '@forkvote/contracts';
import { REDIS } from '@forkvote/platform';
import type { Request, Response } from 'express';
import type Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { roomCallerOf } from '../waiting-room/room-identity';

interface Rule {
  /**
   * Counted per client address (an IPv6 client by its /64, all of which one subscriber holds), per account
   * (the email in the body), or per room (the host's room, as RoomHostGuard found it). A request with no
   * email or room is not counted by that rule.
   */
  per: 'ip' | 'email' | 'room';
  limit: number;
  windowSeconds: number;
}

/**
 * Requests allowed per window, counted by @nestjs/throttler in Redis, so the limits hold across gateway
 * replicas. Login is throttled by its own rules (auth/login-throttle.ts): a success gives its attempt back,
 * which a throttler cannot. A place search or photo that misses the cache is a paid call to Google (or a
 * share of Overpass's fair use), so anonymous callers get a budget: a burst a person browsing never
 * reaches, and an hourly ceiling.
 */
export const RATE_LIMITS = {
  register: [{ per: 'ip', limit: 20, windowSeconds: 3600 }],
  passwordReset: [
    { per: 'ip', limit: 20, windowSeconds: 900 },
    { per: 'email', limit: 5, windowSeconds: 3600 },
  ],
  feedback: [{ per: 'ip', limit: 10, windowSeconds: 3600 }],
  placesSearch: [
    { per: 'ip', limit: 30, windowSeconds: 60 },
    { per: 'ip', limit: 300, windowSeconds: 3600 },
  ],
  placesPhoto: [
    { per: 'ip', limit: 120, windowSeconds: 60 },
    { per: 'ip', limit: 1200, windowSeconds: 3600 },
  ],
  startVoting: [
    { per: 'ip', limit: 30, windowSeconds: 3600 },
    { per: 'room', limit: 5, windowSeconds: 3600 },
  ],
} satisfies Record<string, Rule[]>;

type RuleName = keyof typeof RATE_LIMITS;

/** What a refused caller reads (the web app shows the server's message); by default, too many attempts. */
const REFUSAL_MESSAGES: Partial<Record<RuleName, string>> = {
  feedback: MESSAGES.tooManyMessages,
  placesSearch: MESSAGES.tooManySearches,
  placesPhoto: MESSAGES.tooManySearches,
  startVoting: MESSAGES.tooManySearches,
};

const RATE_LIMIT_KEY = 'forkvote:rate-limit';

const ruleOf = (context: ExecutionContext): RuleName | undefined =>
  Reflect.getMetadata(RATE_LIMIT_KEY, context.getHandler()) as RuleName | undefined;

/** Who a rule counts: '' when the request has nothing of that kind (it is then not counted by the rule). */
function subjectOf(per: Rule['per'], req: Request): string {
  switch (per) {
    case 'ip':
      return req.ip ?? 'unknown';
    case 'email':
      return typeof req.body?.email === 'string' ? req.body.email.trim().toLowerCase().slice(0, 320) : '';
    case 'room':
      return roomCallerOf(req)?.roomId ?? '';
  }
}

/**
 * One named throttler per rule (`placesSearch.0`, `placesSearch.1`, …), each consulted only on the routes
 * marked with its rule. RATE_LIMIT_SCALE scales every limit (0 turns them off, as load tests need).
 */
function throttlersOf(config: GatewayConfig): ThrottlerOptions[] {
  return Object.entries(RATE_LIMITS).flatMap(([name, rules]) =>
    (rules as Rule[]).map((rule, index) => ({
      name: `${name}.${index}`,
      limit: Math.ceil(rule.limit * config.RATE_LIMIT_SCALE),
      ttl: rule.windowSeconds * 1000,
      skipIf: (context: ExecutionContext) =>
        config.RATE_LIMIT_SCALE === 0 ||
        ruleOf(context) !== name ||
        (rule.per !== 'ip' && !subjectOf(rule.per, context.switchToHttp().getRequest<Request>())),
      // An address is the library's own tracker: IPv4 as it is, IPv6 by its /64.
      ...(rule.per === 'ip'
        ? {}
        : { getTracker: (req: Record<string, unknown>) => subjectOf(rule.per, req as unknown as Request) }),
    })),
  );
}

/** Redis that cannot be reached means 503: never a call let through unthrottled, never a 500. */
class RateLimitStorage extends ThrottlerStorageRedisService {
  override async increment(...args: Parameters<ThrottlerStorageRedisService['increment']>) {
    try {
      return await super.increment(...args);
    } catch {
      throw new ServiceUnavailableException(MESSAGES.serviceUnavailable);
    }
  }
}

/** The throttler's settings: its counters in the gateway's Redis, under the stack's key prefix. */
export const RateLimitModule = ThrottlerModule.forRootAsync({
  inject: [GatewayConfig, REDIS],
  useFactory: (config: GatewayConfig, redis: Redis) => ({
    throttlers: throttlersOf(config),
    storage: new RateLimitStorage(redis),
    generateKey: (_context, tracker, throttler) => `${config.REDIS_PREFIX}:rate:${throttler}:${tracker}`,
    // The one header a refusal carries is Retry-After (below); no X-RateLimit-* on every answer.
    setHeaders: false,
  }),
});

/** @nestjs/throttler's guard; a refusal says what the rule's callers read, and when to try again. */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    context
      .switchToHttp()
      .getResponse<Response>()
      .setHeader('Retry-After', String(Math.max(detail.timeToBlockExpire, 1)));
    const name = ruleOf(context);
    throw new HttpException(
      (name && REFUSAL_MESSAGES[name]) ?? MESSAGES.tooManyAttempts,
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/** Limits the route by the named rules; the route lists RateLimitGuard after the guards that find its caller. */
export const RateLimit = (name: RuleName) => SetMetadata(RATE_LIMIT_KEY, name);
