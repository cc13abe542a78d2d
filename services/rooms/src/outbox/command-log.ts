import { Injectable } from '@nestjs/common';
import { ROOM_MESSAGES } from '@forkvote/contracts';
import { fail } from '@forkvote/platform';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';

/** Where a key says what request it was given for: `<key>#<fingerprint>`. */
const REQUEST_MARK = '#';
/** The field of a recorded answer that holds its request's fingerprint. */
const REQUEST_FIELD = '#request';

/** A key answered before for a different request: a replay of it is refused (422), never answered. */
export const KEY_REUSED = Symbol('key reused');
export type Recorded = object | typeof KEY_REUSED;

/** `key` bound to `request`: the same key with another request is told apart (see CommandLog.find). */
export function withRequest(key: string, request: unknown): string {
  const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('base64url').slice(0, 22);
  return `${key}${REQUEST_MARK}${fingerprint}`;
}

/** The key as stored, and the fingerprint of its request (none for a transport request id). */
export function splitKey(key: string): { key: string; request: string | null } {
  const mark = key.lastIndexOf(REQUEST_MARK);
  return mark < 0 ? { key, request: null } : { key: key.slice(0, mark), request: key.slice(mark + 1) };
}

/**
 * Answers of commands, recorded in the transaction that did the command, by key: the transport's request
 * id (a request redelivered after a crash keeps it) or the client's idempotency key, scoped to the caller.
 * A command that finds its key answered returns that answer instead of acting again: no second effect,
 * and no 409 for a retry of something that worked.
 */
@Injectable()
export class CommandLog {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records answers in the caller's transaction; a key already recorded keeps its first answer. The
   * fingerprint of the request a key was given for is kept with its answer.
   */
  async record(manager: EntityManager, answers: { key: string; answer: object }[]): Promise<void> {
    if (answers.length === 0) return;
    const rows = answers.map(({ key, answer }) => {
      const split = splitKey(key);
      return {
        key: split.key,
        answer: split.request ? { ...answer, [REQUEST_FIELD]: split.request } : answer,
      };
    });
    await manager.query(
      `INSERT INTO "rooms"."command_log" (key, answer)
       SELECT * FROM unnest($1::varchar[], $2::jsonb[]) ON CONFLICT (key) DO NOTHING`,
      [rows.map((r) => r.key), rows.map((r) => JSON.stringify(r.answer))],
    );
  }

  /**
   * The recorded answers of those keys that have one, by the key as given; KEY_REUSED for a key recorded
   * for a different request.
   */
  async find(
    keys: string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, Recorded>> {
    if (keys.length === 0) return new Map();
    const split = keys.map(splitKey);
    const rows = (await manager.query(
      `SELECT key, answer FROM "rooms"."command_log" WHERE key = ANY($1::varchar[])`,
      [split.map((k) => k.key)],
    )) as { key: string; answer: Record<string, unknown> }[];
    const stored = new Map(rows.map((r) => [r.key, r.answer]));
    const found = new Map<string, Recorded>();
    keys.forEach((key, i) => {
      const answer = stored.get(split[i].key);
      if (!answer) return;
      const { [REQUEST_FIELD]: request, ...rest } = answer;
      const reused = typeof request === 'string' && split[i].request !== null && request !== split[i].request;
      found.set(key, reused ? KEY_REUSED : rest);
    });
    return found;
  }

  /**
   * Runs a command; if it is refused, but its key was answered before (this is a redelivery or a retry of
   * a command that worked), answers that instead of the refusal.
   */
  async once<T extends object>(key: string, run: () => Promise<T>, replay: (answer: T) => T = (a) => a) {
    try {
      return await run();
    } catch (err) {
      const recorded = (await this.find([key])).get(key);
      if (recorded === KEY_REUSED) fail(422, ROOM_MESSAGES.idempotencyKeyReused);
      if (recorded) return replay(recorded as T);
      throw err;
    }
  }
}

/** A user id that a command's key always gives the same: a redelivered guest join joins the same guest. */
/** Whether a member id is an account's: guests' ids are the ones guestIdFor makes. */
export const isAccount = (userId: string) => !userId.startsWith('guest-');

export function guestIdFor(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `guest-${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
