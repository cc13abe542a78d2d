-- What a batch's results are computed from (computeBallots in libs/contracts): the batch's places in
-- order, the votes of the members still present, the room's decision rule, and the places its ended
-- holdout round turned unanimous. Used when the last ballot or a leave closes a batch, and by snapshots.
CREATE OR REPLACE FUNCTION "rooms"."batch_results_input"(p_room_id uuid, p_batch_index integer, p_batch_size integer)
RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'batchIndex', p_batch_index,
    'places', (SELECT coalesce(jsonb_agg(p.data ORDER BY p.position), '[]') FROM "rooms"."room_places" p
                WHERE p.room_id = p_room_id
                  AND p.position BETWEEN p_batch_index * p_batch_size AND (p_batch_index + 1) * p_batch_size - 1),
    'votes', (SELECT coalesce(jsonb_agg(jsonb_build_object('userId', s.user_id, 'placeId', v.place_id,
                                                           'voteType', v.vote_type)), '[]')
                FROM "rooms"."ballot_submissions" s
                JOIN "rooms"."members" m ON m.room_id = s.room_id AND m.user_id = s.user_id AND m.left_at IS NULL
               CROSS JOIN LATERAL unnest(s.place_ids, s.vote_types) AS v(place_id, vote_type)
               WHERE s.room_id = p_room_id AND s.batch_index = p_batch_index),
    'decisionRule', (SELECT r.decision_rule FROM "rooms"."rooms" r WHERE r.id = p_room_id),
    'agreed', coalesce((SELECT to_jsonb(h.agreed) FROM "rooms"."holdout_rounds" h
                         WHERE h.room_id = p_room_id AND h.batch_index = p_batch_index
                           AND h.ended_at IS NOT NULL), '[]'))
$$;
