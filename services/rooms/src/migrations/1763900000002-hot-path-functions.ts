import { MigrationInterface } from 'typeorm';

/**
 * This migration first created the join and vote functions (`join_room`, `cast_ballot`). They now live in
 * src/sql, one file each, applied by the repeatable step that runs after the migrations whenever a file's
 * text changes; no migration defines a function body any more. The migration stays, empty, so that the
 * history a database recorded still lines up with the list here.
 */
export class HotPathFunctions1763900000002 implements MigrationInterface {
  name = 'HotPathFunctions1763900000002';

  async up(): Promise<void> {}

  async down(): Promise<void> {}
}
