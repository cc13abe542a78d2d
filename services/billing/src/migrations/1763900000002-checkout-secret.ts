import { MigrationInterface, QueryRunner } from 'typeorm';

/** A local checkout opens only for its owner's session or the secret its registering browser holds. */
export class CheckoutSecret1763900000002 implements MigrationInterface {
  name = 'CheckoutSecret1763900000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "billing"."local_checkout_sessions" ADD COLUMN "secret_hash" char(64)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "billing"."local_checkout_sessions" DROP COLUMN "secret_hash"`);
  }
}
