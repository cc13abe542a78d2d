import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room events are written to an outbox in the transaction of the change they report, and a relay publishes
 * them (nothing is lost when the process dies between the commit and the publish). Commands record their
 * answers in the same transaction, keyed by the request's id or the client's idempotency key, so a
 * redelivered or retried command answers the same again instead of acting twice.
 */
export class OutboxAndCommandLog1763900000004 implements MigrationInterface {
  name = 'OutboxAndCommandLog1763900000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "rooms"."outbox" (
        "id" bigserial PRIMARY KEY,
        "room_id" uuid NOT NULL,
        "event" varchar(40) NOT NULL,
        "data" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "published_at" timestamptz
      )`);
    await q.query(
      `CREATE INDEX "outbox_unpublished_idx" ON "rooms"."outbox" ("id") WHERE "published_at" IS NULL`,
    );
    await q.query(`
      CREATE TABLE "rooms"."command_log" (
        "key" varchar(200) PRIMARY KEY,
        "answer" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "command_log_created_at_idx" ON "rooms"."command_log" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rooms"."command_log"`);
    await q.query(`DROP TABLE "rooms"."outbox"`);
  }
}
