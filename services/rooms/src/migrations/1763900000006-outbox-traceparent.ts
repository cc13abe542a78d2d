import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context of the command that wrote an event, kept with the event: the relay's publish and the
 * gateways' fan-out become spans of that command's trace. Null for events written outside a trace.
 */
export class OutboxTraceparent1763900000006 implements MigrationInterface {
  name = 'OutboxTraceparent1763900000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rooms"."outbox" ADD COLUMN "traceparent" varchar(55)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "rooms"."outbox" DROP COLUMN "traceparent"`);
  }
}
