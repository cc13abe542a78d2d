import { Injectable } from '@nestjs/common';
import {
  FRESH_PICK_DAYS,
  RecentPicks,
  DecisionRule,
  HISTORY_PAGE_SIZE,
  HistoryBatch,
  HistoryPage,
  HistoryPlace,
} from '@forkvote/contracts';
import { RoomStore } from './room.store';

interface SessionRow {
  code: string;
  created_at: Date;
  decision_rule: DecisionRule;
  people: string[];
  batches: {
    batchIndex: number;
    voterCount: number;
    winners: string[];
    picked: string | null;
    places: HistoryPlace[];
  }[];
}

/**
 * A registered member's past sessions, newest first: every room they joined (as their account) in which at
 * least one batch has results, with who was there, the rule, each batch's winners, draw and places. Read
 * from `batch_results`, which the outbox relay keeps as results are published.
 */
@Injectable()
export class HistoryService {
  constructor(private readonly store: RoomStore) {}

  /**
   * The places the account's sessions chose in the last FRESH_PICK_DAYS (each batch's draw, else its
   * winners), with when they were last chosen. Only sessions the account was in, as that account; or,
   * given a saved group, the sessions of that group.
   */
  async recentPicks(accountId: string, groupId: string | null = null): Promise<RecentPicks> {
    const rows = (await this.store.manager.query(
      `SELECT w.place_id AS "placeId", max(b.decided_at) AS "pickedAt"
         FROM "rooms"."batch_results" b
         LEFT JOIN "rooms"."picks" p ON p.room_id = b.room_id AND p.batch_index = b.batch_index
        CROSS JOIN LATERAL unnest(CASE WHEN p.place_id IS NULL THEN b.winners ELSE ARRAY[p.place_id] END)
                   AS w(place_id)
        WHERE b.decided_at > now() - make_interval(days => $2)
          AND CASE WHEN $3::uuid IS NULL
                   THEN b.room_id IN (SELECT m.room_id FROM "rooms"."members" m WHERE m.user_id = $1)
                   ELSE b.room_id IN (SELECT r.id FROM "rooms"."rooms" r WHERE r.group_id = $3) END
        GROUP BY w.place_id
        ORDER BY 2 DESC`,
      [accountId, FRESH_PICK_DAYS, groupId],
    )) as { placeId: string; pickedAt: Date }[];
    return { picks: rows.map((r) => ({ placeId: r.placeId, pickedAt: r.pickedAt.toISOString() })) };
  }

  async history(accountId: string, page = 1): Promise<HistoryPage> {
    const rows = (await this.store.manager.query(
      `SELECT r.code, r.created_at, r.decision_rule,
              (SELECT jsonb_agg(m.user_name ORDER BY m.joined_at) FROM "rooms"."members" m
                WHERE m.room_id = r.id) AS people,
              (SELECT jsonb_agg(jsonb_build_object('batchIndex', b.batch_index, 'voterCount', b.voter_count,
                                                   'winners', to_jsonb(b.winners), 'picked', p.place_id,
                                                   'places', b.places) ORDER BY b.batch_index)
                 FROM "rooms"."batch_results" b
                 LEFT JOIN "rooms"."picks" p ON p.room_id = b.room_id AND p.batch_index = b.batch_index
                WHERE b.room_id = r.id) AS batches
         FROM "rooms"."rooms" r
        WHERE r.id IN (SELECT m.room_id FROM "rooms"."members" m WHERE m.user_id = $1)
          AND EXISTS (SELECT 1 FROM "rooms"."batch_results" b WHERE b.room_id = r.id)
        ORDER BY r.created_at DESC, r.id
        LIMIT $2 OFFSET $3`,
      [accountId, HISTORY_PAGE_SIZE + 1, (page - 1) * HISTORY_PAGE_SIZE],
    )) as SessionRow[];
    return {
      page,
      hasMore: rows.length > HISTORY_PAGE_SIZE,
      sessions: rows.slice(0, HISTORY_PAGE_SIZE).map((row) => ({
        waitingRoomId: row.code,
        startedAt: row.created_at.toISOString(),
        people: row.people,
        decisionRule: row.decision_rule,
        batches: row.batches.map((b): HistoryBatch => {
          const byId = (id: string) => b.places.find((p) => p.id === id);
          return {
            batchIndex: b.batchIndex,
            voterCount: b.voterCount,
            winners: b.winners.map(byId).filter((p): p is HistoryPlace => p !== undefined),
            picked: (b.picked && byId(b.picked)) || null,
            places: b.places,
          };
        }),
      })),
    };
  }
}
