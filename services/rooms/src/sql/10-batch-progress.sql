-- The one definition of "who has voted on a batch": the present members of the room, and those of them
-- who have sent their ballot for the batch, in the order they voted. A batch is complete when every
-- present member has voted (and someone is present). cast_ballot and leaving the room both ask this.
CREATE OR REPLACE FUNCTION "rooms"."batch_progress"(p_room_id uuid, p_batch_index integer)
RETURNS TABLE (present integer, voted varchar[], complete boolean)
LANGUAGE sql STABLE AS $$
  WITH counts AS (
    SELECT (SELECT count(*)::integer FROM "rooms"."members" m
             WHERE m.room_id = p_room_id AND m.left_at IS NULL) AS present,
           (SELECT coalesce(array_agg(s.user_id ORDER BY s.submitted_at), '{}')
              FROM "rooms"."ballot_submissions" s
              JOIN "rooms"."members" m ON m.room_id = s.room_id AND m.user_id = s.user_id AND m.left_at IS NULL
             WHERE s.room_id = p_room_id AND s.batch_index = p_batch_index) AS voted
  )
  SELECT present, voted, present > 0 AND cardinality(voted) >= present FROM counts
$$;
