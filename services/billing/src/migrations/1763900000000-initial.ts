import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763900000000 implements MigrationInterface {
  name = 'Initial1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "billing"."customers" (
        "user_id" uuid PRIMARY KEY,
        "email" varchar(320) NOT NULL,
        "stripe_customer_id" varchar(255) UNIQUE,
        "has_lifetime_access" boolean NOT NULL DEFAULT false,
        "lifetime_access_purchased_at" timestamptz,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "billing"."customers"`);
  }
}
