import { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per vote; replaced by the ballot's own arrays in BallotVotesInOneRow, whose `down` brings it back. */
export const CREATE_VOTES_TABLE = `
  CREATE TABLE "rooms"."votes" (
    "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
    "batch_index" integer NOT NULL,
    "user_id" varchar(64) NOT NULL,
    "place_id" varchar(300) NOT NULL,
    "vote_type" varchar(4) NOT NULL CHECK ("vote_type" IN ('up', 'down')),
    PRIMARY KEY ("room_id", "batch_index", "user_id", "place_id")
  )`;

export class Voting1763900000001 implements MigrationInterface {
  name = 'Voting1763900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "rooms"."rooms" ADD "create_request_id" varchar(64) UNIQUE, ADD "search" jsonb`,
    );
    await q.query(
      `CREATE INDEX "members_room_present_idx" ON "rooms"."members" ("room_id") WHERE "left_at" IS NULL`,
    );
    await q.query(`
      CREATE TABLE "rooms"."room_places" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "position" integer NOT NULL,
        "place_id" varchar(300) NOT NULL,
        "data" jsonb NOT NULL,
        PRIMARY KEY ("room_id", "position"),
        CONSTRAINT "room_places_room_place_key" UNIQUE ("room_id", "place_id")
      )`);
    await q.query(`
      CREATE TABLE "rooms"."ballot_submissions" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "batch_index" integer NOT NULL,
        "user_id" varchar(64) NOT NULL,
        "submitted_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("room_id", "batch_index", "user_id")
      )`);
    await q.query(CREATE_VOTES_TABLE);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rooms"."votes"`);
    await q.query(`DROP TABLE "rooms"."ballot_submissions"`);
    await q.query(`DROP TABLE "rooms"."room_places"`);
    await q.query(`DROP INDEX "rooms"."members_room_present_idx"`);
    await q.query(`ALTER TABLE "rooms"."rooms" DROP "create_request_id", DROP "search"`);
  }
}
