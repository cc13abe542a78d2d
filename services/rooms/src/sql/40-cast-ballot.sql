-- A ballot as one function: one round trip, and the room's row lock is held only while it runs, which
-- makes "the last ballot closes the batch" happen exactly once. Refusals come back as data, as join's do.
CREATE OR REPLACE FUNCTION "rooms"."cast_ballot"(p_room_id uuid, p_user_id varchar, p_place_ids varchar[],
                                                 p_vote_types varchar[], p_batch_size integer)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r "rooms"."rooms"%ROWTYPE;
  first_position integer;
  progress record;
BEGIN
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

  SELECT * INTO progress FROM "rooms"."batch_progress"(p_room_id, r.batch_index);
  IF NOT progress.complete THEN
    RETURN jsonb_build_object('batchIndex', r.batch_index, 'usersVoted', to_jsonb(progress.voted));
  END IF;

  -- The last ballot: the batch closes, and what its results are computed from comes back with it.
  UPDATE "rooms"."rooms" SET state = 'results' WHERE id = p_room_id;
  RETURN jsonb_build_object('usersVoted', to_jsonb(progress.voted))
         || "rooms"."batch_results_input"(p_room_id, r.batch_index, p_batch_size);
END $$;
