import { MigrationInterface, QueryRunner } from 'typeorm';

export class ResetTokensAndFeedback1763900000001 implements MigrationInterface {
  name = 'ResetTokensAndFeedback1763900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "auth"."password_reset_tokens" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "user_id" uuid NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "token_hash" char(64) NOT NULL,
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "password_reset_tokens_token_hash_key" UNIQUE ("token_hash")
      )`);
    await q.query(
      `CREATE INDEX "password_reset_tokens_user_id_idx" ON "auth"."password_reset_tokens" ("user_id")`,
    );
    await q.query(`
      CREATE TABLE "auth"."feedback" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "name" varchar(100) NOT NULL,
        "email" varchar(320) NOT NULL,
        "subject" varchar(200) NOT NULL,
        "message" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "auth"."feedback"`);
    await q.query(`DROP TABLE "auth"."password_reset_tokens"`);
  }
}
