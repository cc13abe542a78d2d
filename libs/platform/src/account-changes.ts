import { Logger } from '@nestjs/common';
import { accountKeys } from '@forkvote/contracts';
import type Redis from 'ioredis';

const logger = new Logger('AccountChanges');

/** Far longer than any gateway keeps an answer; a counter that lapses only makes gateways ask again. */
const VERSION_TTL_SECONDS = 7 * 86_400;

/**
 * Tells every gateway that what it caches of this account (see `accountKeys`) is out of date. Call it after
 * the change has committed: a gateway that reads the old counter and then the new state only caches the new
 * state under an old counter, which it drops at the next look. If Redis cannot be reached, gateways notice
 * within ACCOUNT_ANSWER_CACHE_SECONDS.
 */
export async function announceAccountChange(redis: Redis, prefix: string, userId: string): Promise<void> {
  const key = accountKeys.version(prefix, userId);
  try {
    await redis.multi().incr(key).expire(key, VERSION_TTL_SECONDS).exec();
  } catch (err) {
    logger.warn(`Announcing a change of account ${userId} failed: ${(err as Error).message}`);
  }
}
