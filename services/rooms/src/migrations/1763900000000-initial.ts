import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763900000000 implements MigrationInterface {
  name = 'Initial1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "rooms"."rooms" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "code" varchar(6) NOT NULL,
        "state" varchar(10) NOT NULL DEFAULT 'waiting',
        "created_by_user_id" varchar(64) NOT NULL,
        "batch_index" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "closed_at" timestamptz,
        CONSTRAINT "rooms_state_check" CHECK ("state" IN ('waiting', 'voting', 'results', 'closed'))
      )`);
    // A code is unique among rooms that are still open; closed rooms free their code.
    await q.query(
      `CREATE UNIQUE INDEX "rooms_open_code_key" ON "rooms"."rooms" ("code") WHERE "state" <> 'closed'`,
    );
    await q.query(`
      CREATE TABLE "rooms"."members" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "user_id" varchar(64) NOT NULL,
        "user_name" varchar(50) NOT NULL,
        "joined_at" timestamptz NOT NULL DEFAULT now(),
        "left_at" timestamptz,
        CONSTRAINT "members_room_user_key" UNIQUE ("room_id", "user_id")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rooms"."members"`);
    await q.query(`DROP TABLE "rooms"."rooms"`);
  }
}
