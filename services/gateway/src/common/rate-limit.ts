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

interface Rule {
  /** Counted per client address, or per account (the email in the body). */
  per: 'ip' | 'email';
  limit: number;
  windowSeconds: number;
}

/**
 * Attempts allowed per window. Counters live in Redis, so the limits hold across gateway replicas.
 * Login is throttled on failures instead (auth/login-throttle.ts).
 */
export const RATE_LIMITS = {
  register: [{ per: 'ip', limit: 20, windowSeconds: 3600 }],
  passwordReset: [
    { per: 'ip', limit: 20, windowSeconds: 900 },
    { per: 'email', limit: 5, windowSeconds: 3600 },
  ],
} satisfies Record<string, Rule[]>;

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
    const email =
      typeof req.body?.email === 'string' ? req.body.email.trim().toLowerCase().slice(0, 320) : '';
    for (const rule of RATE_LIMITS[name] as Rule[]) {
      const subject = rule.per === 'ip' ? (req.ip ?? 'unknown') : email;
      if (!subject) continue;
      const key = `${this.config.REDIS_PREFIX}:rate:${name}:${rule.per}:${subject}`;
      const [[, count], , [, ttl]] = await this.counted(key, rule.windowSeconds);
      if (count > Math.ceil(rule.limit * this.config.RATE_LIMIT_SCALE)) {
        context
          .switchToHttp()
          .getResponse()
          .setHeader('Retry-After', String(Math.max(ttl, 1)));
        throw new HttpException(MESSAGES.tooManyAttempts, HttpStatus.TOO_MANY_REQUESTS);
      }
    }
    return true;
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
