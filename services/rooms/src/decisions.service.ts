import { Injectable } from '@nestjs/common';
import {
  BallotsResult,
  DECISION_MESSAGES,
  DecidedBy,
  DecisionRule,
  drawCandidates,
  DrawnPick,
  HoldoutAnswer,
  holdoutPending,
  holdoutQuestions,
  HoldoutRound,
  nextQuarterHour,
  Place,
  PLAN_MAX_AHEAD_DAYS,
  PlanView,
  ROOM_EVENTS,
  ROOM_MESSAGES,
  SharePlanAnswer,
} from '@forkvote/contracts';
import { fail } from '@forkvote/platform';
import { randomBytes, randomInt } from 'node:crypto';
import { EntityManager, IsNull } from 'typeorm';
import { ballotsOf } from './ballots';
import { Member } from './entities/member.entity';
import { Room } from './entities/room.entity';
import { CommandLog } from './outbox/command-log';
import { RoomEventsOutbox } from './outbox/room-events.outbox';
import { RoomStore } from './room.store';

interface RoundRow {
  questions: HoldoutRound['questions'];
  agreed: string[];
  ended_at: Date | null;
}

/**
 * How a room decides beyond the SPEC's unanimous rule (docs/decisions.md): the host's choice of rule, the
 * holdout round, the draw, and the shared plan. Each command runs under the room's row lock, writes its
 * events to the outbox and records its answer in the same transaction, as voting's commands do.
 */
@Injectable()
export class DecisionsService {
  constructor(
    private readonly store: RoomStore,
    private readonly outbox: RoomEventsOutbox,
    private readonly commands: CommandLog,
  ) {}

  /** The host chooses how the room decides, in the waiting room (start may carry it too). */
  async setRule(roomId: string, hostId: string, decisionRule: DecisionRule, key: string) {
    return this.commands.once(key, async () => {
      const changed = await this.store.transaction(async (manager) => {
        const room = await this.hostRoom(manager, roomId, hostId);
        if (room.state !== 'waiting') fail(409, DECISION_MESSAGES.ruleLocked);
        const answer = { decisionRule };
        if (room.decisionRule !== decisionRule) {
          await manager.getRepository(Room).update({ id: roomId }, { decisionRule });
          await this.outbox.write(manager, [
            { roomId, event: ROOM_EVENTS.decisionRuleChanged, data: { decisionRule } },
          ]);
        }
        await this.commands.record(manager, [{ key, answer }]);
        return room.decisionRule !== decisionRule;
      });
      if (changed) this.outbox.wake();
      return { decisionRule };
    });
  }

  /**
   * "Ask the holdouts": for a batch with no winner, asks the people who said no to the places that came
   * closest whether they could live with them. One round per batch.
   */
  async askHoldouts(roomId: string, hostId: string, key: string): Promise<HoldoutRound> {
    return this.commands.once(key, async () => {
      const round = await this.store.transaction(async (manager) => {
        const room = await this.hostRoom(manager, roomId, hostId);
        if (room.state !== 'results') fail(409, ROOM_MESSAGES.notResults);
        if (await this.roundOf(manager, room)) fail(409, DECISION_MESSAGES.holdoutsAsked);
        if (await this.pickOf(manager, room)) fail(409, DECISION_MESSAGES.alreadyDrawn);
        const result = await ballotsOf(manager, room);
        if (result.winners.length > 0) fail(409, DECISION_MESSAGES.hasWinner);
        const questions = holdoutQuestions(result);
        if (questions.length === 0) fail(409, DECISION_MESSAGES.noHoldouts);
        await manager.query(
          `INSERT INTO "rooms"."holdout_rounds" (room_id, batch_index, questions) VALUES ($1, $2, $3)`,
          [roomId, room.batchIndex, JSON.stringify(questions)],
        );
        const started: HoldoutRound = {
          batchIndex: room.batchIndex,
          questions,
          answered: [],
          ended: false,
          agreed: [],
        };
        await this.outbox.write(manager, [
          {
            roomId,
            event: ROOM_EVENTS.holdoutRoundStarted,
            data: { batchIndex: room.batchIndex, questions },
          },
        ]);
        await this.commands.record(manager, [{ key, answer: started }]);
        return started;
      });
      this.outbox.wake();
      return round;
    });
  }

  /**
   * A holdout's answer to one question. When every holdout still in the room has answered, the round ends:
   * a place all its holdouts said yes to is a unanimous winner now, and the results say so.
   */
  async answerHoldout(
    roomId: string,
    userId: string,
    placeId: string,
    answer: 'yes' | 'no',
    key: string,
  ): Promise<HoldoutAnswer> {
    return this.commands.once(key, async () => {
      const outcome = await this.store.transaction(async (manager) => {
        const room = await this.store.lockRoom(manager, roomId);
        const member = await manager.getRepository(Member).findOneBy({ roomId, userId, leftAt: IsNull() });
        if (!member) fail(403, ROOM_MESSAGES.notMember);
        const round = room.state === 'results' ? await this.roundOf(manager, room) : null;
        if (!round || round.ended_at) fail(409, DECISION_MESSAGES.noHoldoutRound);
        const question = round.questions.find((q) => q.placeId === placeId);
        if (!question?.userIds.includes(userId)) fail(403, DECISION_MESSAGES.notAsked);
        const inserted = (await manager.query(
          `INSERT INTO "rooms"."holdout_answers" (room_id, batch_index, place_id, user_id, answer)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1`,
          [roomId, room.batchIndex, placeId, userId, answer === 'yes'],
        )) as unknown[];
        if (inserted.length === 0) fail(409, DECISION_MESSAGES.alreadyAnswered);

        const answers = await this.answersOf(manager, room);
        const present = new Set((await this.store.presentUsers(manager, roomId)).map((u) => u.userId));
        // Someone who left is no longer asked: the round does not wait for them.
        const questions = round.questions.map((q) => ({
          ...q,
          userIds: q.userIds.filter((id) => present.has(id)),
        }));
        const pending = holdoutPending({ questions, answered: answers, ended: false });
        const events: Parameters<RoomEventsOutbox['write']>[1] = [
          {
            roomId,
            event: ROOM_EVENTS.holdoutAnswered,
            data: { batchIndex: room.batchIndex, placeId, userId, pending },
          },
        ];
        let agreed: string[] = [];
        if (pending.length === 0) {
          const yes = new Set(answers.filter((a) => a.answer).map((a) => `${a.placeId}\n${a.userId}`));
          agreed = questions
            .filter((q) => q.userIds.length > 0 && q.userIds.every((id) => yes.has(`${q.placeId}\n${id}`)))
            .map((q) => q.placeId);
          await manager.query(
            `UPDATE "rooms"."holdout_rounds" SET ended_at = now(), agreed = $3
              WHERE room_id = $1 AND batch_index = $2`,
            [roomId, room.batchIndex, agreed],
          );
          const result = await ballotsOf(manager, room);
          events.push({
            roomId,
            event: ROOM_EVENTS.holdoutRoundEnded,
            data: { batchIndex: room.batchIndex, agreed, result },
          });
        }
        await this.outbox.write(manager, events);
        const reply: HoldoutAnswer = { answered: true, pending, ended: pending.length === 0, agreed };
        await this.commands.record(manager, [{ key, answer: reply }]);
        return reply;
      });
      this.outbox.wake();
      return outcome;
    });
  }

  /**
   * "Pick one for us": one place drawn at random (node:crypto) among drawCandidates, recorded with the
   * batch; a second draw is refused, so nobody can draw again for another answer.
   */
  async drawPick(roomId: string, hostId: string, key: string): Promise<DrawnPick> {
    return this.commands.once(key, async () => {
      const pick = await this.store.transaction(async (manager) => {
        const room = await this.hostRoom(manager, roomId, hostId);
        if (room.state !== 'results') fail(409, ROOM_MESSAGES.notResults);
        if (await this.pickOf(manager, room)) fail(409, DECISION_MESSAGES.alreadyDrawn);
        const round = await this.roundOf(manager, room);
        if (round && !round.ended_at) fail(409, DECISION_MESSAGES.holdoutsPending);
        const result = await ballotsOf(manager, room);
        const candidates = drawCandidates(result);
        if (candidates.length === 0)
          fail(
            409,
            result.winners.length === 1 ? DECISION_MESSAGES.nothingToDraw : DECISION_MESSAGES.noCandidates,
          );
        const drawn: DrawnPick = {
          batchIndex: room.batchIndex,
          placeId: candidates[randomInt(candidates.length)],
          candidates,
        };
        const [{ drawn_at }] = (await manager.query(
          `INSERT INTO "rooms"."picks" (room_id, batch_index, place_id, candidates) VALUES ($1, $2, $3, $4)
           RETURNING drawn_at`,
          [roomId, room.batchIndex, drawn.placeId, candidates],
        )) as { drawn_at: Date }[];
        await this.outbox.write(manager, [
          { roomId, event: ROOM_EVENTS.pickDrawn, data: { ...drawn, drawnAt: drawn_at.toISOString() } },
        ]);
        await this.commands.record(manager, [{ key, answer: drawn }]);
        return drawn;
      });
      this.outbox.wake();
      return pick;
    });
  }

  /**
   * A member shares the place the batch decided on as a public plan: one token per room, batch and place
   * (sharing again answers the same token, with the new time if one is given).
   */
  async sharePlan(
    roomId: string,
    userId: string,
    placeId: string,
    startsAt: string | undefined,
  ): Promise<SharePlanAnswer> {
    const now = new Date();
    let at = nextQuarterHour(now);
    if (startsAt !== undefined) {
      at = new Date(startsAt);
      const latest = now.getTime() + PLAN_MAX_AHEAD_DAYS * 86_400_000;
      if (Number.isNaN(at.getTime()) || at.getTime() < now.getTime() - 3_600_000 || at.getTime() > latest)
        fail(400, DECISION_MESSAGES.invalidPlanTime);
    }
    return this.store.transaction(async (manager) => {
      const room = await this.store.lockRoom(manager, roomId);
      const member = await manager.getRepository(Member).findOneBy({ roomId, userId, leftAt: IsNull() });
      if (!member) fail(403, ROOM_MESSAGES.notMember);
      if (room.state !== 'results') fail(409, ROOM_MESSAGES.notResults);
      const result = await ballotsOf(manager, room);
      const pick = await this.pickOf(manager, room);
      const ballot = result.ballots.find((b) => b.placeId === placeId);
      const chosen = pick ? pick.placeId === placeId : result.winners.includes(placeId);
      if (!ballot || !chosen) fail(409, DECISION_MESSAGES.notAWinner);
      const [{ token }] = (await manager.query(
        `INSERT INTO "rooms"."plans"
                (token, room_id, batch_index, place_id, place, decided_by, decision_rule, decided_at, starts_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now(), $8)
         ON CONFLICT ON CONSTRAINT "plans_room_batch_place_key"
         DO UPDATE SET starts_at = CASE WHEN $9 THEN EXCLUDED.starts_at ELSE "plans".starts_at END
         RETURNING token`,
        [
          randomBytes(16).toString('base64url'),
          roomId,
          room.batchIndex,
          placeId,
          JSON.stringify(ballot.place),
          decidedBy(result, placeId, pick !== null),
          room.decisionRule,
          at,
          startsAt !== undefined,
        ],
      )) as { token: string }[];
      return { token, path: `/plan/${token}` };
    });
  }

  /** The public plan: the place, where and when; nothing about who voted how. */
  async plan(token: string): Promise<PlanView> {
    const [row] = (await this.store.manager.query(
      `SELECT token, place, decided_by, decision_rule, decided_at, starts_at FROM "rooms"."plans" WHERE token = $1`,
      [token],
    )) as {
      token: string;
      place: Place;
      decided_by: DecidedBy;
      decision_rule: DecisionRule;
      decided_at: Date;
      starts_at: Date;
    }[];
    if (!row) fail(404, DECISION_MESSAGES.planNotFound);
    const p = row.place;
    const address = p.formattedAddress || p.shortFormattedAddress;
    const destination = p.location
      ? `${p.location.latitude},${p.location.longitude}`
      : `${p.displayName.text}, ${address}`;
    return {
      token: row.token,
      place: {
        id: p.id,
        name: p.displayName.text,
        address,
        mapsUri: p.googleMapsUri,
        directionsUri: `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`,
        websiteUri: p.websiteUri ?? null,
        openNow: p.currentOpeningHours?.openNow ?? null,
        hours: p.openingHours ?? null,
        location: p.location ?? null,
      },
      startsAt: row.starts_at.toISOString(),
      decidedAt: row.decided_at.toISOString(),
      decidedBy: row.decided_by,
      decisionRule: row.decision_rule,
    };
  }

  /** The current batch's holdout round and drawn pick, for a member's snapshot. */
  async decisionState(
    manager: EntityManager,
    room: Room,
  ): Promise<{ holdout: HoldoutRound | null; pick: DrawnPick | null }> {
    if (room.state !== 'results') return { holdout: null, pick: null };
    const round = await this.roundOf(manager, room);
    const holdout: HoldoutRound | null = round && {
      batchIndex: room.batchIndex,
      questions: round.questions,
      answered: (await this.answersOf(manager, room)).map(({ placeId, userId }) => ({ placeId, userId })),
      ended: round.ended_at !== null,
      agreed: round.agreed,
    };
    return { holdout, pick: await this.pickOf(manager, room) };
  }

  private async hostRoom(manager: EntityManager, roomId: string, hostId: string): Promise<Room> {
    const room = await this.store.lockRoom(manager, roomId);
    if (room.createdByUserId !== hostId) fail(403, ROOM_MESSAGES.hostOnly);
    return room;
  }

  private async roundOf(manager: EntityManager, room: Room): Promise<RoundRow | null> {
    const [row] = (await manager.query(
      `SELECT questions, agreed, ended_at FROM "rooms"."holdout_rounds" WHERE room_id = $1 AND batch_index = $2`,
      [room.id, room.batchIndex],
    )) as RoundRow[];
    return row ?? null;
  }

  private async answersOf(manager: EntityManager, room: Room) {
    return (await manager.query(
      `SELECT place_id AS "placeId", user_id AS "userId", answer FROM "rooms"."holdout_answers"
        WHERE room_id = $1 AND batch_index = $2 ORDER BY answered_at`,
      [room.id, room.batchIndex],
    )) as { placeId: string; userId: string; answer: boolean }[];
  }

  private async pickOf(manager: EntityManager, room: Room): Promise<DrawnPick | null> {
    const [row] = (await manager.query(
      `SELECT place_id, candidates FROM "rooms"."picks" WHERE room_id = $1 AND batch_index = $2`,
      [room.id, room.batchIndex],
    )) as { place_id: string; candidates: string[] }[];
    return row ? { batchIndex: room.batchIndex, placeId: row.place_id, candidates: row.candidates } : null;
  }
}

function decidedBy(result: BallotsResult, placeId: string, drawn: boolean): DecidedBy {
  if (drawn) return 'draw';
  if (result.agreed?.includes(placeId)) return 'holdout';
  const ballot = result.ballots.find((b) => b.placeId === placeId);
  return ballot && ballot.upVotes === result.voterCount ? 'unanimous' : 'rule';
}
