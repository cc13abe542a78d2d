import { Inject, Injectable, Logger } from '@nestjs/common';
import { LIVE_SESSION_CACHE_SECONDS, sessionKeys } from '@forkvote/contracts';
import { REDIS, tokenKeys } from '@forkvote/platform';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull, LessThan, Repository } from 'typeorm';
import { AuthConfig } from '../auth.config';
import { Session } from '../entities/session.entity';

/**
 * Login sessions. PostgreSQL holds the record (issued, expires, revoked); Redis caches each session's state
 * for the gateways, which ask `check` on a cache miss. So a logout or a password reset stays in force
 * when Redis loses everything, and Redis being down can delay an answer but never revive a session.
 */
@Injectable()
export class SessionsService {
  private readonly logger = new Logger(SessionsService.name);
  private readonly sessions: Repository<Session>;

  constructor(
    private readonly config: AuthConfig,
    dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.sessions = dataSource.getRepository(Session);
  }

  /** Records a new session and signs its token. */
  async open(user: { id: string; email: string }, expiresInSeconds: number): Promise<string> {
    const jti = randomUUID();
    await this.sessions.insert({
      id: jti,
      userId: user.id,
      expiresAt: new Date(Date.now() + expiresInSeconds * 1000),
    });
    // Housekeeping on the user's own rows (indexed): expired sessions need no record.
    await this.sessions.delete({ userId: user.id, expiresAt: LessThan(new Date()) });
    return tokenKeys(this.config).sign('session', { sub: user.id, email: user.email, jti }, expiresInSeconds);
  }

  /** Whether the session is live in the record; caches the answer for the gateways. */
  async check(jti: string, userId: string): Promise<{ live: boolean }> {
    const session = await this.sessions.findOneBy({ id: jti, userId });
    const live = !!session && session.revokedAt === null && session.expiresAt.getTime() > Date.now();
    const ttl = session ? secondsUntil(session.expiresAt) : LIVE_SESSION_CACHE_SECONDS;
    await this.cache(jti, live ? 'live' : 'revoked', live ? Math.min(ttl, LIVE_SESSION_CACHE_SECONDS) : ttl);
    return { live };
  }

  /** Logout: this session only. */
  async revoke(jti: string, userId: string): Promise<void> {
    await this.sessions.update({ id: jti, userId, revokedAt: IsNull() }, { revokedAt: new Date() });
    const session = await this.sessions.findOneBy({ id: jti });
    await this.cache(jti, 'revoked', session ? secondsUntil(session.expiresAt) : LIVE_SESSION_CACHE_SECONDS);
  }

  /**
   * Password reset: every session of the user, inside the reset's own transaction, so the new password
   * and the end of the old sessions commit together. Call `forget` with the answer after the commit.
   */
  async revokeAllIn(manager: EntityManager, userId: string): Promise<Session[]> {
    const revoked = await manager
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: () => 'now()' })
      .where('user_id = :userId AND revoked_at IS NULL AND expires_at > now()', { userId })
      .returning(['id', 'expiresAt'])
      .execute();
    return (revoked.raw as { id: string; expires_at: Date }[]).map((row) =>
      Object.assign(new Session(), { id: row.id, expiresAt: new Date(row.expires_at) }),
    );
  }

  /** Marks revoked sessions in the cache, so gateways stop accepting them now rather than in minutes. */
  async forget(sessions: Session[]): Promise<void> {
    await Promise.all(sessions.map((s) => this.cache(s.id, 'revoked', secondsUntil(s.expiresAt))));
  }

  private async cache(jti: string, state: 'live' | 'revoked', ttlSeconds: number): Promise<void> {
    try {
      await this.redis.set(
        sessionKeys.state(this.config.REDIS_PREFIX, jti),
        state,
        'EX',
        Math.max(ttlSeconds, 1),
      );
    } catch (err) {
      // The record is in PostgreSQL; a live answer cached earlier expires within LIVE_SESSION_CACHE_SECONDS.
      this.logger.warn(`Session cache not updated: ${(err as Error).message}`);
    }
  }
}

function secondsUntil(date: Date): number {
  return Math.max(1, Math.ceil((date.getTime() - Date.now()) / 1000));
}
