import { MigrationInterface, QueryRunner } from 'typeorm';

/** A user's private limits (diet, highest price, longest distance), saved with their preferences. */
export class PrivateLimits1763900000003 implements MigrationInterface {
  name = 'PrivateLimits1763900000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "auth"."users" ADD COLUMN "limits" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "auth"."users" DROP COLUMN "limits"`);
  }
}
