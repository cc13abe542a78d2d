import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763900000000 implements MigrationInterface {
  name = 'Initial1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "auth"."users" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "email" varchar(320) NOT NULL,
        "name" varchar(100) NOT NULL,
        "password_hash" text NOT NULL,
        "default_zipcode" varchar(5),
        "contact_me_for_user_feedback" boolean NOT NULL DEFAULT false,
        "restaurant_types_to_include" text[] NOT NULL DEFAULT '{}',
        "restaurant_types_to_exclude" text[] NOT NULL DEFAULT '{}',
        "token_version" integer NOT NULL DEFAULT 0,
        "terms_version" varchar(10) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "users_email_key" UNIQUE ("email")
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "auth"."users"`);
  }
}
