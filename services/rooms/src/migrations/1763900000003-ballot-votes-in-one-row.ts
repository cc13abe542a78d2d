import { MigrationInterface, QueryRunner } from 'typeorm';
import { CREATE_VOTES_TABLE } from './1763900000001-voting';

/**
 * A ballot's votes live in the ballot's own row (two parallel arrays) instead of five rows of a `votes`
 * table: a ballot becomes one heap tuple and one index entry instead of six of each, which the benchmark
 * showed as a third of PostgreSQL's work per vote. `cast_ballot` (src/sql/40-cast-ballot.sql) reads this
 * shape; the repeatable step after the migrations keeps it current. `down` restores the tables only: the
 * functions follow the build that runs (docs/adr/0013).
 */
export class BallotVotesInOneRow1763900000003 implements MigrationInterface {
  name = 'BallotVotesInOneRow1763900000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "rooms"."ballot_submissions" ADD "place_ids" varchar(300)[], ADD "vote_types" varchar(4)[]`,
    );
    await q.query(`
      UPDATE "rooms"."ballot_submissions" s
         SET place_ids = v.place_ids, vote_types = v.vote_types
        FROM (SELECT room_id, batch_index, user_id,
                     array_agg(place_id ORDER BY place_id) AS place_ids,
                     array_agg(vote_type ORDER BY place_id) AS vote_types
                FROM "rooms"."votes" GROUP BY room_id, batch_index, user_id) v
       WHERE v.room_id = s.room_id AND v.batch_index = s.batch_index AND v.user_id = s.user_id`);
    await q.query(
      `UPDATE "rooms"."ballot_submissions" SET place_ids = '{}', vote_types = '{}' WHERE place_ids IS NULL`,
    );
    await q.query(`
      ALTER TABLE "rooms"."ballot_submissions"
        ALTER "place_ids" SET NOT NULL,
        ALTER "vote_types" SET NOT NULL,
        ADD CONSTRAINT "ballot_submissions_votes_check"
          CHECK (cardinality(place_ids) = cardinality(vote_types) AND vote_types <@ ARRAY['up', 'down']::varchar[])`);
    await q.query(`DROP TABLE "rooms"."votes"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(CREATE_VOTES_TABLE);
    await q.query(`
      INSERT INTO "rooms"."votes" (room_id, batch_index, user_id, place_id, vote_type)
      SELECT s.room_id, s.batch_index, s.user_id, v.place_id, v.vote_type
        FROM "rooms"."ballot_submissions" s
       CROSS JOIN LATERAL unnest(s.place_ids, s.vote_types) AS v(place_id, vote_type)`);
    await q.query(
      `ALTER TABLE "rooms"."ballot_submissions" DROP CONSTRAINT "ballot_submissions_votes_check", DROP "place_ids", DROP "vote_types"`,
    );
  }
}
