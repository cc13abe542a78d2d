import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763900000000 implements MigrationInterface {
  name = 'Initial1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "places"."searches" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "provider" varchar(20) NOT NULL,
        "result_count" integer NOT NULL,
        "duration_ms" integer NOT NULL,
        "failed" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "places"."searches"`);
  }
}
