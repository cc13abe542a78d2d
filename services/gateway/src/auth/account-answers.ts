import { Inject, Injectable } from '@nestjs/common';
import { ACCOUNT_ANSWER_CACHE_SECONDS, accountKeys, AccessTokenPayload } from '@forkvote/contracts';
import { REDIS } from '@forkvote/platform';
import type Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import { GatewayConfig } from '../gateway.config';

interface Entry {
  payload: AccessTokenPayload;
  /** The account's change counter when the answer was asked for (null: no change yet, or it lapsed). */
  version: string | null;
}

/** Accounts kept at most; the least recently used goes first when a new one does not fit. */
const MAX_ENTRIES = 20_000;

/**
 * The verify-token answers of this gateway, per account. Every page load of a signed-in user asks for one;
 * asking auth each time (which asks billing for the plan) cost a millisecond of CPU across the processes.
 * An answer is reused while the account's change counter in Redis (raised by auth and billing after each
 * change, see `accountKeys`) is what it was when the answer was fetched, for at most
 * ACCOUNT_ANSWER_CACHE_SECONDS: a plan bought or cancelled shows on the next load.
 */
@Injectable()
export class AccountAnswers {
  private readonly entries = new LRUCache<string, Entry>({
    max: MAX_ENTRIES,
    ttl: ACCOUNT_ANSWER_CACHE_SECONDS * 1000,
  });

  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async get(userId: string, fetch: () => Promise<AccessTokenPayload>): Promise<AccessTokenPayload> {
    // Read before asking: a change committed after this read raises the counter past it.
    const version = await this.redis
      .get(accountKeys.version(this.config.REDIS_PREFIX, userId))
      .catch(() => undefined);
    const entry = this.entries.get(userId);
    if (entry && version !== undefined && entry.version === version) return entry.payload;
    const payload = await fetch();
    // Unknown counter (Redis away): answer, but keep nothing that could not be checked later.
    if (version === undefined) this.entries.delete(userId);
    else this.entries.set(userId, { payload, version });
    return payload;
  }
}
