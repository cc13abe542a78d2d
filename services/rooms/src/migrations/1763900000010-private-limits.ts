import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Private limits: each member's own (diet, highest price, longest distance), read only by the start of
 * voting; and how many places they left out, the one figure anyone else sees.
 */
export class PrivateLimits1763900000010 implements MigrationInterface {
  name = 'PrivateLimits1763900000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rooms"."members" ADD COLUMN "limits" jsonb`);
    await q.query(`ALTER TABLE "rooms"."rooms" ADD COLUMN "left_out_by_limits" integer NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rooms"."rooms" DROP COLUMN "left_out_by_limits"`);
    await q.query(`ALTER TABLE "rooms"."members" DROP COLUMN "limits"`);
  }
}
