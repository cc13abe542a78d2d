import { DatabaseOptions, dataSourceOptions, migrate } from '@forkvote/platform';
import { dropDatabase, ensureDatabase } from '@forkvote/testing';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { Initial1763900000000 } from '../src/migrations/1763900000000-initial';
import { Voting1763900000001 } from '../src/migrations/1763900000001-voting';
import { HotPathFunctions1763900000002 } from '../src/migrations/1763900000002-hot-path-functions';
import { BallotVotesInOneRow1763900000003 } from '../src/migrations/1763900000003-ballot-votes-in-one-row';
import { roomsDatabase } from '../src/rooms.module';

/**
 * Rooms' data migrations against the real PostgreSQL: ballots written in the old shape (five vote rows)
 * come through `BallotVotesInOneRow` intact, `cast_ballot` from src/sql works on them, and `down` restores
 * the old shape with the same votes.
 */
describe('rooms migrations', () => {
  const base = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = Object.assign(new URL(base), {
    pathname: `/forkvote_test_migrations_${randomBytes(4).toString('hex')}`,
  }).toString();
  const before = [Initial1763900000000, Voting1763900000001, HotPathFunctions1763900000002];
  let dataSource: DataSource;

  const open = async (migrations: DatabaseOptions['migrations']) => {
    const ds = new DataSource(dataSourceOptions(url, { schema: 'rooms', entities: [], migrations }));
    await ds.initialize();
    return ds;
  };

  beforeAll(async () => {
    await ensureDatabase(url);
  });

  afterAll(async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    await dropDatabase(url);
  });

  it('moves five-row ballots into one row and back', async () => {
    dataSource = await open(before);
    await migrate(dataSource, 'rooms');
    const [{ id }] = await dataSource.query(
      `INSERT INTO "rooms"."rooms" (code, state, created_by_user_id) VALUES ('MIG001', 'voting', 'host') RETURNING id`,
    );
    await dataSource.query(
      `INSERT INTO "rooms"."members" (room_id, user_id, user_name) VALUES ($1, 'host', 'Hana'), ($1, 'gus', 'Gus'), ($1, 'ola', 'Ola')`,
      [id],
    );
    const places = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const [position, placeId] of places.entries()) {
      await dataSource.query(
        `INSERT INTO "rooms"."room_places" (room_id, position, place_id, data) VALUES ($1, $2, $3, $4)`,
        [id, position, placeId, { id: placeId }],
      );
    }
    // The old shape: a ballot row and one vote row per place.
    const oldBallot = async (user: string) => {
      await dataSource.query(
        `INSERT INTO "rooms"."ballot_submissions" (room_id, batch_index, user_id) VALUES ($1, 0, $2)`,
        [id, user],
      );
      for (const place of places) {
        await dataSource.query(
          `INSERT INTO "rooms"."votes" (room_id, batch_index, user_id, place_id, vote_type) VALUES ($1, 0, $2, $3, $4)`,
          [id, user, place, place === 'p1' || user === 'host' ? 'up' : 'down'],
        );
      }
    };
    await oldBallot('host');
    await oldBallot('gus');
    await dataSource.destroy();

    dataSource = await open([...before, BallotVotesInOneRow1763900000003]);
    expect(await migrate(dataSource, 'rooms')).toEqual(['BallotVotesInOneRow1763900000003']);
    const rows = await dataSource.query(
      `SELECT user_id, place_ids, vote_types FROM "rooms"."ballot_submissions" ORDER BY user_id`,
    );
    expect(rows).toEqual([
      { user_id: 'gus', place_ids: places, vote_types: ['up', 'down', 'down', 'down', 'down'] },
      { user_id: 'host', place_ids: places, vote_types: ['up', 'up', 'up', 'up', 'up'] },
    ]);
    // The functions come from the repeatable step, after every later migration (they read what those add).
    await dataSource.destroy();
    dataSource = await open(roomsDatabase.migrations);
    await migrate(dataSource, 'rooms', roomsDatabase.sqlDir);
    // The last ballot, through the new function, closes the batch with everyone's votes.
    const [{ cast }] = await dataSource.query(`SELECT "rooms"."cast_ballot"($1, 'ola', $2, $3, 5) AS cast`, [
      id,
      places,
      places.map((p) => (p === 'p1' ? 'up' : 'down')),
    ]);
    expect(cast.usersVoted).toEqual(['host', 'gus', 'ola']);
    expect(cast.places.map((p: { id: string }) => p.id)).toEqual(places);
    expect(cast.votes).toHaveLength(15);
    expect(cast.votes).toContainEqual({ userId: 'gus', placeId: 'p1', voteType: 'up' });
    // A ballot whose arrays disagree is refused by the table itself.
    await expect(
      dataSource.query(
        `INSERT INTO "rooms"."ballot_submissions" (room_id, batch_index, user_id, place_ids, vote_types)
         VALUES ($1, 1, 'gus', '{p1,p2}', '{up}')`,
        [id],
      ),
    ).rejects.toThrow(/ballot_submissions_votes_check/);

    // Down through every later migration, then BallotVotesInOneRow's own.
    for (let n = before.length; n < roomsDatabase.migrations.length; n++)
      await dataSource.undoLastMigration({ transaction: 'each' });
    const votes = await dataSource.query(
      `SELECT user_id, count(*)::int AS n, count(*) FILTER (WHERE vote_type = 'up')::int AS up
         FROM "rooms"."votes" GROUP BY user_id ORDER BY user_id`,
    );
    expect(votes).toEqual([
      { user_id: 'gus', n: 5, up: 1 },
      { user_id: 'host', n: 5, up: 5 },
      { user_id: 'ola', n: 5, up: 1 },
    ]);
  });

  it('applies the repeatable SQL after the migrations once, and a file again only when its text changes', async () => {
    if (dataSource?.isInitialized) await dataSource.destroy();
    dataSource = await open(roomsDatabase.migrations);
    const sqlDir = mkdtempSync(join(tmpdir(), 'rooms-sql-'));
    cpSync(roomsDatabase.sqlDir!, sqlDir, { recursive: true });
    try {
      // As a database that never ran the step (the test above ran it on this one).
      await dataSource.query('DROP TABLE IF EXISTS "rooms"."repeatable_sql"');
      const first = await migrate(dataSource, 'rooms', sqlDir);
      expect(first.filter((name) => name.endsWith(')'))).toHaveLength(readdirSync(sqlDir).length);
      expect(await migrate(dataSource, 'rooms', sqlDir)).toEqual([]);
      // The file is the function's one definition: edit it in place and it is applied again, alone.
      const file = join(sqlDir, '10-batch-progress.sql');
      writeFileSync(file, readFileSync(file, 'utf8') + '\n-- edited\n');
      const again = await migrate(dataSource, 'rooms', sqlDir);
      expect(again).toHaveLength(1);
      expect(again[0]).toMatch(/^10-batch-progress\.sql \([0-9a-f]{8}\)$/);
      const [{ present }] = await dataSource.query(
        `SELECT present FROM "rooms"."batch_progress"('00000000-0000-4000-8000-000000000000', 0)`,
      );
      expect(present).toBe(0);
    } finally {
      rmSync(sqlDir, { recursive: true, force: true });
    }
  });
});
