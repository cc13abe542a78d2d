import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How a room decides beyond the SPEC's unanimous rule (docs/decisions.md): the room's rule, a batch's
 * holdout round and its answers, the one draw a batch may have, and the plans members share. All are kept
 * with the room, so a closed room's plan page still answers.
 */
export class Decisions1763900000007 implements MigrationInterface {
  name = 'Decisions1763900000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE "rooms"."rooms" ADD "decision_rule" varchar(10) NOT NULL DEFAULT 'unanimous'
        CHECK ("decision_rule" IN ('unanimous', 'majority', 'most'))`);
    await q.query(`
      CREATE TABLE "rooms"."holdout_rounds" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "batch_index" integer NOT NULL,
        "questions" jsonb NOT NULL,
        "agreed" varchar(300)[] NOT NULL DEFAULT '{}',
        "started_at" timestamptz NOT NULL DEFAULT now(),
        "ended_at" timestamptz,
        PRIMARY KEY ("room_id", "batch_index")
      )`);
    await q.query(`
      CREATE TABLE "rooms"."holdout_answers" (
        "room_id" uuid NOT NULL,
        "batch_index" integer NOT NULL,
        "place_id" varchar(300) NOT NULL,
        "user_id" varchar(64) NOT NULL,
        "answer" boolean NOT NULL,
        "answered_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("room_id", "batch_index", "place_id", "user_id"),
        FOREIGN KEY ("room_id", "batch_index")
          REFERENCES "rooms"."holdout_rounds" ("room_id", "batch_index") ON DELETE CASCADE
      )`);
    await q.query(`
      CREATE TABLE "rooms"."picks" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "batch_index" integer NOT NULL,
        "place_id" varchar(300) NOT NULL,
        "candidates" varchar(300)[] NOT NULL,
        "drawn_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("room_id", "batch_index")
      )`);
    await q.query(`
      CREATE TABLE "rooms"."plans" (
        "token" varchar(22) PRIMARY KEY,
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "batch_index" integer NOT NULL,
        "place_id" varchar(300) NOT NULL,
        "place" jsonb NOT NULL,
        "decided_by" varchar(10) NOT NULL,
        "decision_rule" varchar(10) NOT NULL,
        "decided_at" timestamptz NOT NULL,
        "starts_at" timestamptz NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "plans_room_batch_place_key" UNIQUE ("room_id", "batch_index", "place_id")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rooms"."plans"`);
    await q.query(`DROP TABLE "rooms"."picks"`);
    await q.query(`DROP TABLE "rooms"."holdout_answers"`);
    await q.query(`DROP TABLE "rooms"."holdout_rounds"`);
    await q.query(`ALTER TABLE "rooms"."rooms" DROP "decision_rule"`);
  }
}
