import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Web Push: the subscriptions room members gave (one per browser), and which event went to which
 * subscription, so an event the relay publishes again is never pushed twice.
 */
export class Push1763900000009 implements MigrationInterface {
  name = 'Push1763900000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "rooms"."push_subscriptions" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "user_id" varchar(64) NOT NULL,
        "endpoint" varchar(1000) NOT NULL,
        "p256dh" varchar(200) NOT NULL,
        "auth" varchar(100) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("room_id", "user_id", "endpoint")
      )`);
    await q.query(`
      CREATE TABLE "rooms"."push_deliveries" (
        "outbox_id" bigint NOT NULL,
        "endpoint" varchar(1000) NOT NULL,
        "sent_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("outbox_id", "endpoint")
      )`);
    await q.query(`CREATE INDEX "push_deliveries_sent_at_idx" ON "rooms"."push_deliveries" ("sent_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rooms"."push_deliveries"`);
    await q.query(`DROP TABLE "rooms"."push_subscriptions"`);
  }
}
