import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each batch's results as they were published (the relay keeps them from BALLOTS_SUBMITTED and
 * HOLDOUT_ROUND_ENDED): a member's history and the fresh-picks marks read them, long after the room closed
 * and its members left (which changes whose votes a recomputation would count).
 */
export class History1763900000008 implements MigrationInterface {
  name = 'History1763900000008';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "rooms"."batch_results" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "batch_index" integer NOT NULL,
        "voter_count" integer NOT NULL,
        "winners" varchar(300)[] NOT NULL,
        "places" jsonb NOT NULL,
        "decided_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("room_id", "batch_index")
      )`);
    // A member's rooms (history), and a host's (fresh picks).
    await q.query(`CREATE INDEX "members_user_idx" ON "rooms"."members" ("user_id")`);
    await q.query(
      `CREATE INDEX "rooms_created_by_idx" ON "rooms"."rooms" ("created_by_user_id", "created_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "rooms"."rooms_created_by_idx"`);
    await q.query(`DROP INDEX "rooms"."members_user_idx"`);
    await q.query(`DROP TABLE "rooms"."batch_results"`);
  }
}
