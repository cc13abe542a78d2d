import { MigrationInterface, QueryRunner } from 'typeorm';

export class Subscriptions1763900000001 implements MigrationInterface {
  name = 'Subscriptions1763900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "billing"."subscriptions" (
        "id" varchar(255) PRIMARY KEY,
        "user_id" uuid NOT NULL,
        "status" varchar(30) NOT NULL,
        "data" jsonb NOT NULL,
        "event_created" bigint NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "subscriptions_user_id_idx" ON "billing"."subscriptions" ("user_id")`);
    await q.query(`
      CREATE TABLE "billing"."local_checkout_sessions" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL,
        "email" varchar(320) NOT NULL,
        "plan" varchar(10) NOT NULL,
        "status" varchar(10) NOT NULL DEFAULT 'open',
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "billing"."processed_events" (
        "id" varchar(255) PRIMARY KEY,
        "type" varchar(100) NOT NULL,
        "processed_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "billing"."processed_events"`);
    await q.query(`DROP TABLE "billing"."local_checkout_sessions"`);
    await q.query(`DROP TABLE "billing"."subscriptions"`);
  }
}
