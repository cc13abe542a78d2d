import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sessions recorded in PostgreSQL, so a logout or a password reset outlives a Redis that restarts empty. */
export class Sessions1763900000002 implements MigrationInterface {
  name = 'Sessions1763900000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "auth"."sessions" (
        "id" uuid PRIMARY KEY,
        "user_id" uuid NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "expires_at" timestamptz NOT NULL,
        "revoked_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "sessions_user_id_idx" ON "auth"."sessions" ("user_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "auth"."sessions"`);
  }
}
