import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every statement that adds room events to the outbox notifies `rooms_outbox` when its transaction
 * commits, whichever replica ran it (the vote's SQL function writes its event itself, so a trigger rather
 * than the callers). The replica holding the relay lock listens, and publishes at once instead of at its
 * next poll. PostgreSQL delivers one notification per channel and payload per transaction.
 */
export class OutboxNotify1763900000005 implements MigrationInterface {
  name = 'OutboxNotify1763900000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION "rooms"."outbox_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('rooms_outbox', '');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER "outbox_notify" AFTER INSERT ON "rooms"."outbox"
        FOR EACH STATEMENT EXECUTE FUNCTION "rooms"."outbox_notify"()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER "outbox_notify" ON "rooms"."outbox"`);
    await q.query(`DROP FUNCTION "rooms"."outbox_notify"()`);
  }
}
