-- Join, the call a room makes most after voting, as one function: one round trip. Joins of one room take
-- turns on its row lock (NO KEY UPDATE, as ballots do), so the member list each one reads includes every
-- join before it: the last USER_JOINED of a room always lists everyone. A refusal comes back as
-- {"error": "<ROOM_MESSAGES key>"}, so the service answers the SPEC's message; nothing is written then.
CREATE OR REPLACE FUNCTION "rooms"."join_room"(p_code varchar, p_user_id varchar, p_user_name varchar)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  r "rooms"."rooms"%ROWTYPE;
BEGIN
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
                               'batchIndex', r.batch_index, 'createdByUserId', r.created_by_user_id,
                               'decisionRule', r.decision_rule),
    -- Present members, and the host even after leaving (the room shows who created it).
    'members', (SELECT coalesce(jsonb_agg(jsonb_build_array(m.user_id, m.user_name, m.left_at IS NULL)
                                          ORDER BY m.joined_at), '[]')
                  FROM "rooms"."members" m
                 WHERE m.room_id = r.id AND (m.left_at IS NULL OR m.user_id = r.created_by_user_id)),
    'placesCount', (SELECT count(*) FROM "rooms"."room_places" p WHERE p.room_id = r.id));
END $$;
