import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved groups: a host's named group of the people of a session (accounts by id, guests by name only),
 * the rooms started with it, and the invitations those rooms sent its registered members.
 */
export class SavedGroups1763900000011 implements MigrationInterface {
  name = 'SavedGroups1763900000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "rooms"."groups" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "owner_id" varchar(64) NOT NULL,
        "owner_name" varchar(100) NOT NULL,
        "name" varchar(40) NOT NULL,
        "decision_rule" varchar(10) NOT NULL DEFAULT 'unanimous',
        "search" jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "groups_owner_id_idx" ON "rooms"."groups" ("owner_id")`);
    await q.query(`
      CREATE TABLE "rooms"."group_members" (
        "group_id" uuid NOT NULL REFERENCES "rooms"."groups" ("id") ON DELETE CASCADE,
        "member_id" integer NOT NULL,
        "user_id" varchar(64),
        "user_name" varchar(100) NOT NULL,
        PRIMARY KEY ("group_id", "member_id")
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "group_members_account_idx" ON "rooms"."group_members" ("user_id", "group_id")
        WHERE "user_id" IS NOT NULL`,
    );
    await q.query(
      `ALTER TABLE "rooms"."rooms" ADD COLUMN "group_id" uuid REFERENCES "rooms"."groups" ("id") ON DELETE SET NULL`,
    );
    await q.query(
      `CREATE INDEX "rooms_group_id_idx" ON "rooms"."rooms" ("group_id") WHERE "group_id" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE "rooms"."invitations" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "user_id" varchar(64) NOT NULL,
        "group_id" uuid NOT NULL REFERENCES "rooms"."groups" ("id") ON DELETE CASCADE,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "dismissed_at" timestamptz,
        PRIMARY KEY ("room_id", "user_id")
      )`);
    await q.query(`CREATE INDEX "invitations_user_id_idx" ON "rooms"."invitations" ("user_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "rooms"."invitations"`);
    await q.query(`ALTER TABLE "rooms"."rooms" DROP COLUMN "group_id"`);
    await q.query(`DROP TABLE "rooms"."group_members"`);
    await q.query(`DROP TABLE "rooms"."groups"`);
  }
}
