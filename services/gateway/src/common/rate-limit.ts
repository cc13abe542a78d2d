import {
  CanActivate,
  ExecutionContext,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  ServiceUnavailableException,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MESSAGES } from '@forkvote/contracts';
import { REDIS } from '@forkvote/platform';
import type { Request } from 'express';
import Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { hostRoom } from '../waiting-room/room-identity';

interface Rule {
  /**
   * Counted per client address, per account (the email in the body), or per room (the room of the host's
   * bearer token; a request without a valid one is not counted here, and is refused by its handler).
   */
  per: 'ip' | 'email' | 'room';
  limit: number;
  windowSeconds: number;
}

/**
 * Requests allowed per window. Counters live in Redis, so the limits hold across gateway replicas.
 * Login is throttled by its own rules (auth/login-throttle.ts). A place search or photo that misses the
 * cache is a paid call to Google (or a share of Overpass's fair use), so anonymous callers get a budget: a
 * burst a person browsing never reaches, and an hourly ceiling.
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

/** What a refused caller reads (the web app shows the server's message); by default, too many attempts. */
const REFUSAL_MESSAGES: Partial<Record<keyof typeof RATE_LIMITS, string>> = {
  feedback: MESSAGES.tooManyMessages,
  placesSearch: MESSAGES.tooManySearches,
  placesPhoto: MESSAGES.tooManySearches,
  startVoting: MESSAGES.tooManySearches,
};

const RATE_LIMIT_KEY = 'forkvote:rate-limit';
export const RateLimit = (name: keyof typeof RATE_LIMITS) => SetMetadata(RATE_LIMIT_KEY, name);

@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.get<keyof typeof RATE_LIMITS | undefined>(
      RATE_LIMIT_KEY,
      context.getHandler(),
    );
    if (!name || this.config.RATE_LIMIT_SCALE === 0) return true;
    const req = context.switchToHttp().getRequest<Request>();
    for (const [index, rule] of (RATE_LIMITS[name] as Rule[]).entries()) {
      const subject = this.subject(rule, req);
      if (!subject) continue;
      const key = `${this.config.REDIS_PREFIX}:rate:${name}:${index}:${rule.per}:${subject}`;
      const [[, count], , [, ttl]] = await this.counted(key, rule.windowSeconds);
      if (count > Math.ceil(rule.limit * this.config.RATE_LIMIT_SCALE)) {
        context
          .switchToHttp()
          .getResponse()
          .setHeader('Retry-After', String(Math.max(ttl, 1)));
        throw new HttpException(
          REFUSAL_MESSAGES[name] ?? MESSAGES.tooManyAttempts,
          HttpStatus.TOO_MANY_REQUESTS,
        );
      }
    }
    return true;
  }

  private subject(rule: Rule, req: Request): string {
    switch (rule.per) {
      case 'ip':
        return req.ip ?? 'unknown';
      case 'email':
        return typeof req.body?.email === 'string' ? req.body.email.trim().toLowerCase().slice(0, 320) : '';
      case 'room':
        return hostRoom(req, this.config)?.roomId ?? '';
    }
  }

  /** Counters that cannot be reached mean 503: never a call let through unthrottled, never a 500. */
  private async counted(key: string, windowSeconds: number) {
    try {
      return (await this.redis.multi().incr(key).expire(key, windowSeconds, 'NX').ttl(key).exec()) as [
        [Error | null, number],
        [Error | null, number],
        [Error | null, number],
      ];
    } catch {
      throw new ServiceUnavailableException(MESSAGES.serviceUnavailable);
    }
  }
}
