import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Join and vote, the calls a room makes most, each as one function: one round trip to PostgreSQL instead
 * of three to five, and a vote holds its room's row lock only while the function runs, not across network
 * round trips. Calls of one room take turns on its row lock; batches of calls (see Batcher) take the locks
 * in room id order, so two batches never wait for each other in a circle. Refusals come back as `{ "error": "<ROOM_MESSAGES key>" }` so the service answers the SPEC's
 * message; nothing is written when a call is refused.
 */
export class HotPathFunctions1763900000002 implements MigrationInterface {
  name = 'HotPathFunctions1763900000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION "rooms"."join_room"(p_code varchar, p_user_id varchar, p_user_name varchar)
      RETURNS jsonb LANGUAGE plpgsql AS $$
      DECLARE
        r "rooms"."rooms"%ROWTYPE;
      BEGIN
        -- Joins of one room take turns (NO KEY UPDATE, as ballots do), so the member list each one reads
        -- includes every join before it: the last USER_JOINED of a room always lists everyone.
        SELECT * INTO r FROM "rooms"."rooms" WHERE code = p_code AND state <> 'closed' FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          IF EXISTS (SELECT 1 FROM "rooms"."rooms" WHERE code = p_code) THEN
            RETURN jsonb_build_object('error', 'roomClosed');
          END IF;
          RETURN jsonb_build_object('error', 'roomNotFound');
        END IF;
        INSERT INTO "rooms"."members" (room_id, user_id, user_name) VALUES (r.id, p_user_id, p_user_name)
          ON CONFLICT (room_id, user_id) DO UPDATE SET user_name = EXCLUDED.user_name, left_at = NULL;
        RETURN jsonb_build_object(
          'room', jsonb_build_object('id', r.id, 'code', r.code, 'state', r.state,
                                     'batchIndex', r.batch_index, 'createdByUserId', r.created_by_user_id),
          -- Present members, and the host even after leaving (the room shows who created it).
          'members', (SELECT coalesce(jsonb_agg(jsonb_build_array(m.user_id, m.user_name, m.left_at IS NULL)
                                                ORDER BY m.joined_at), '[]')
                        FROM "rooms"."members" m
                       WHERE m.room_id = r.id AND (m.left_at IS NULL OR m.user_id = r.created_by_user_id)),
          'placesCount', (SELECT count(*) FROM "rooms"."room_places" p WHERE p.room_id = r.id));
      END $$`);

    await q.query(`
      CREATE FUNCTION "rooms"."cast_ballot"(p_room_id uuid, p_user_id varchar, p_place_ids varchar[],
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

        INSERT INTO "rooms"."ballot_submissions" (room_id, batch_index, user_id)
          VALUES (p_room_id, r.batch_index, p_user_id) ON CONFLICT DO NOTHING;
        IF NOT FOUND THEN RETURN jsonb_build_object('error', 'alreadyVoted'); END IF;
        INSERT INTO "rooms"."votes" (room_id, batch_index, user_id, place_id, vote_type)
          SELECT p_room_id, r.batch_index, p_user_id, v.place_id, v.vote_type
            FROM unnest(p_place_ids, p_vote_types) AS v(place_id, vote_type);

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
          'votes', (SELECT coalesce(jsonb_agg(jsonb_build_object('userId', v.user_id, 'placeId', v.place_id,
                                                                 'voteType', v.vote_type)), '[]')
                      FROM "rooms"."votes" v
                      JOIN "rooms"."members" m ON m.room_id = v.room_id AND m.user_id = v.user_id AND m.left_at IS NULL
                     WHERE v.room_id = p_room_id AND v.batch_index = r.batch_index));
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION "rooms"."cast_ballot"(uuid, varchar, varchar[], varchar[], integer)`);
    await q.query(`DROP FUNCTION "rooms"."join_room"(varchar, varchar, varchar)`);
  }
}
