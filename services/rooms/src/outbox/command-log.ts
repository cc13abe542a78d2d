import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Answers of commands, recorded in the transaction that did the command, by key: the transport's request
 * id (a request redelivered after a crash keeps it) or the client's idempotency key, scoped to the caller.
 * A command that finds its key answered returns that answer instead of acting again: no second effect,
 * and no 409 for a retry of something that worked.
 */
@Injectable()
export class CommandLog {
  constructor(private readonly dataSource: DataSource) {}

  /** Records answers in the caller's transaction; a key already recorded keeps its first answer. */
  async record(manager: EntityManager, answers: { key: string; answer: object }[]): Promise<void> {
    if (answers.length === 0) return;
    await manager.query(
      `INSERT INTO "rooms"."command_log" (key, answer)
       SELECT * FROM unnest($1::varchar[], $2::jsonb[]) ON CONFLICT (key) DO NOTHING`,
      [answers.map((a) => a.key), answers.map((a) => JSON.stringify(a.answer))],
    );
  }

  /** The recorded answers of those keys that have one. */
  async find(keys: string[], manager: EntityManager = this.dataSource.manager): Promise<Map<string, object>> {
    if (keys.length === 0) return new Map();
    const rows = (await manager.query(
      `SELECT key, answer FROM "rooms"."command_log" WHERE key = ANY($1::varchar[])`,
      [keys],
    )) as { key: string; answer: object }[];
    return new Map(rows.map((r) => [r.key, r.answer]));
  }

  /**
   * Runs a command; if it is refused, but its key was answered before (this is a redelivery or a retry of
   * a command that worked), answers that instead of the refusal.
   */
  async once<T extends object>(key: string, run: () => Promise<T>, replay: (answer: T) => T = (a) => a) {
    try {
      return await run();
    } catch (err) {
      const recorded = (await this.find([key])).get(key) as T | undefined;
      if (recorded) return replay(recorded);
      throw err;
    }
  }
}

/** A user id that a command's key always gives the same: a redelivered guest join joins the same guest. */
export function guestIdFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `guest-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
