import { MigrationInterface, QueryRunner } from 'typeorm';
import { HotPathFunctions1763900000002 } from './1763900000002-hot-path-functions';

/**
 * A ballot's votes live in the ballot's own row (two parallel arrays) instead of five rows of a `votes`
 * table: a ballot becomes one heap tuple and one index entry instead of six of each, which the benchmark
 * showed as a third of PostgreSQL's work per vote. `cast_ballot` is replaced to match.
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

    await q.query(`
      CREATE OR REPLACE FUNCTION "rooms"."cast_ballot"(p_room_id uuid, p_user_id varchar, p_place_ids varchar[],
                                                       p_vote_types varchar[], p_batch_size integer)
      RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        r "rooms"."rooms"%ROWTYPE;
        first_position integer;
        voted varchar[];
        present integer;
      BEGIN
        -- The room's row lock makes "the last ballot closes the batch" happen exactly once.
        SELECT * INTO r FROM "rooms"."rooms" WHERE id = p_room_id FOR NO KEY UPDATE;
        IF NOT FOUND THEN RETURN jsonb_build_object('error', 'roomNotFound'); END IF;
        IF r.state = 'closed' THEN RETURN jsonb_build_object('error', 'roomClosed'); END IF;
        IF NOT EXISTS (SELECT 1 FROM "rooms"."members" m
                        WHERE m.room_id = p_room_id AND m.user_id = p_user_id AND m.left_at IS NULL) THEN
          RETURN jsonb_build_object('error', 'notMember');
        END IF;
        IF r.state <> 'voting' THEN RETURN jsonb_build_object('error', 'notVoting'); END IF;

        first_position := r.batch_index * p_batch_size;
        -- One vote for each place of the current batch, no more, no fewer, no repeats.
        IF (SELECT coalesce(array_agg(p.place_id ORDER BY p.place_id), '{}') FROM "rooms"."room_places" p
             WHERE p.room_id = p_room_id AND p.position BETWEEN first_position AND first_position + p_batch_size - 1)
           IS DISTINCT FROM (SELECT coalesce(array_agg(x ORDER BY x), '{}') FROM unnest(p_place_ids) x) THEN
          RETURN jsonb_build_object('error', 'voteAllPlaces');
        END IF;

        INSERT INTO "rooms"."ballot_submissions" (room_id, batch_index, user_id, place_ids, vote_types)
          VALUES (p_room_id, r.batch_index, p_user_id, p_place_ids, p_vote_types) ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN RETURN jsonb_build_object('error', 'alreadyVoted'); END IF;

        SELECT count(*) INTO present FROM "rooms"."members" m WHERE m.room_id = p_room_id AND m.left_at IS NULL;
        -- Present members who voted on this batch, in the order they voted.
        SELECT coalesce(array_agg(s.user_id ORDER BY s.submitted_at), '{}') INTO voted
          FROM "rooms"."ballot_submissions" s
          JOIN "rooms"."members" m ON m.room_id = s.room_id AND m.user_id = s.user_id AND m.left_at IS NULL
         WHERE s.room_id = p_room_id AND s.batch_index = r.batch_index;
        IF cardinality(voted) < present THEN
          RETURN jsonb_build_object('batchIndex', r.batch_index, 'usersVoted', to_jsonb(voted));
        END IF;

        -- The last ballot: the batch closes, and what its results are computed from comes back with it.
        UPDATE "rooms"."rooms" SET state = 'results' WHERE id = p_room_id;
        RETURN jsonb_build_object(
          'batchIndex', r.batch_index,
          'usersVoted', to_jsonb(voted),
          'places', (SELECT coalesce(jsonb_agg(p.data ORDER BY p.position), '[]') FROM "rooms"."room_places" p
                      WHERE p.room_id = p_room_id
                        AND p.position BETWEEN first_position AND first_position + p_batch_size - 1),
          'votes', (SELECT coalesce(jsonb_agg(jsonb_build_object('userId', s.user_id, 'placeId', v.place_id,
                                                                 'voteType', v.vote_type)), '[]')
                      FROM "rooms"."ballot_submissions" s
                      JOIN "rooms"."members" m ON m.room_id = s.room_id AND m.user_id = s.user_id AND m.left_at IS NULL
                     CROSS JOIN LATERAL unnest(s.place_ids, s.vote_types) AS v(place_id, vote_type)
                     WHERE s.room_id = p_room_id AND s.batch_index = r.batch_index));
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "rooms"."votes" (
        "room_id" uuid NOT NULL REFERENCES "rooms"."rooms" ("id") ON DELETE CASCADE,
        "batch_index" integer NOT NULL,
        "user_id" varchar(64) NOT NULL,
        "place_id" varchar(300) NOT NULL,
        "vote_type" varchar(4) NOT NULL CHECK ("vote_type" IN ('up', 'down')),
        PRIMARY KEY ("room_id", "batch_index", "user_id", "place_id")
      )`);
    await q.query(`
      INSERT INTO "rooms"."votes" (room_id, batch_index, user_id, place_id, vote_type)
      SELECT s.room_id, s.batch_index, s.user_id, v.place_id, v.vote_type
        FROM "rooms"."ballot_submissions" s
       CROSS JOIN LATERAL unnest(s.place_ids, s.vote_types) AS v(place_id, vote_type)`);
    await q.query(
      `ALTER TABLE "rooms"."ballot_submissions" DROP CONSTRAINT "ballot_submissions_votes_check", DROP "place_ids", DROP "vote_types"`,
    );
    // The functions as the previous migration made them.
    const previous = new HotPathFunctions1763900000002();
    await previous.down(q);
    await previous.up(q);
  }
}
