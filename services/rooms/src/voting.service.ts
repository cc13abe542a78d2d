import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  applyLimits,
  BallotsInput,
  LIMITS_MESSAGES,
  MAX_RESULT_COUNT,
  NextBatchAnswer,
  newPlacesFirst,
  NUDGE_INTERVAL_SECONDS,
  NudgeAnswer,
  PLACES,
  PlacesAnswer,
  PLACES_PER_BATCH,
  ROOM_EVENTS,
  ROOM_MESSAGES,
  StartRoomDto,
  VoteItemDto,
} from '@forkvote/contracts';
import {
  activeTraceparent,
  callService,
  fail,
  PlatformConfig,
  REDIS,
  SERVICE_CLIENT,
} from '@forkvote/platform';
import Redis from 'ioredis';
import { EntityManager } from 'typeorm';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { Batcher } from './batcher';
import { CommandLog, splitKey } from './outbox/command-log';
import { RoomEventsOutbox } from './outbox/room-events.outbox';
import { refuse, RoomRefusal, RoomStore } from './room.store';
import { HistoryService } from './history.service';
import { LimitsService } from './limits.service';

/** How many pages of a search a start reads at most to make up for places private limits leave out. */
const LIMITED_SEARCH_PAGES = 3;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What `rooms.cast_ballot` answers; `places` and `votes` only for the ballot that closed the batch. */
type CastBallot = { batchIndex: number; usersVoted: string[] } & Partial<BallotsInput>;

interface BallotInput {
  roomId: string;
  userId: string;
  votes: VoteItemDto[];
  /** The command's key (see CommandLog). */
  key: string;
  /** The trace of the call (ballots run batched, outside their callers' contexts). */
  traceparent: string | null;
}

@Injectable()
export class VotingService {
  /**
   * Ballots arriving together (and those arriving while the previous batch runs) go as one statement, which
   * is a transaction of its own: `rooms.cast_ballot` for each, taking their rooms' locks in room id order
   * so that two batches never wait for each other in a circle, then their USER_VOTED events (and, for a
   * batch's last ballot, BALLOTS_SUBMITTED) into the outbox and their answers into the command log. One
   * round trip for all of it; a statement that fails leaves nothing behind.
   */
  private readonly ballots = new Batcher<BallotInput, CastBallot | RoomRefusal>('vote', async (inputs) => {
    const order = inputs.map((_, index) => index).sort((a, b) => compare(inputs[a].roomId, inputs[b].roomId));
    const sorted = order.map((index) => inputs[index]);
    const rows = await this.store.statement<{ cast: CastBallot | RoomRefusal }>(
      'rooms.vote-batch',
      `WITH cast_ballots AS MATERIALIZED (
         SELECT a.n, a.room_id, a.user_id, a.key, a.request, a.traceparent,
                "rooms"."cast_ballot"(a.room_id, a.user_id,
                    ARRAY(SELECT jsonb_array_elements_text(a.votes->0)), ARRAY(SELECT jsonb_array_elements_text(a.votes->1)),
                    $5) AS result
           FROM unnest($1::uuid[], $2::varchar[], $3::jsonb[], $4::varchar[], $8::varchar[], $9::varchar[])
                WITH ORDINALITY AS a(room_id, user_id, votes, key, request, traceparent, n)
          ORDER BY a.n
       ), accepted AS (
         SELECT * FROM cast_ballots WHERE NOT result ? 'error'
       ), events AS (
         INSERT INTO "rooms"."outbox" (room_id, event, data, traceparent)
         SELECT c.room_id, e.event, e.data, c.traceparent
           FROM accepted c
          CROSS JOIN LATERAL (VALUES
                  (1, $6::varchar, jsonb_build_object('userId', c.user_id, 'usersVoted', c.result->'usersVoted')),
                  (2, $7::varchar, (c.result - 'usersVoted') || jsonb_build_object('closedBy', c.user_id))) AS e(k, event, data)
          WHERE e.k = 1 OR c.result ? 'places'
          ORDER BY c.n, e.k
       ), answers AS (
         INSERT INTO "rooms"."command_log" (key, answer)
         SELECT c.key, jsonb_strip_nulls(jsonb_build_object('voted', true, 'usersVoted', c.result->'usersVoted', '#request', c.request))
           FROM accepted c
         ON CONFLICT (key) DO NOTHING
       )
       SELECT b.result AS cast FROM cast_ballots b ORDER BY b.n`,
      [
        sorted.map((i) => i.roomId),
        sorted.map((i) => i.userId),
        sorted.map((i) => JSON.stringify([i.votes.map((v) => v.placeId), i.votes.map((v) => v.voteType)])),
        sorted.map((i) => splitKey(i.key).key),
        PLACES_PER_BATCH,
        ROOM_EVENTS.userVoted,
        ROOM_EVENTS.ballotsSubmitted,
        // As CommandLog.record keeps it: the fingerprint of the request the key was given for.
        sorted.map((i) => splitKey(i.key).request),
        sorted.map((i) => i.traceparent),
      ],
    );
    this.outbox.wake();
    const byInput = new Array<CastBallot | RoomRefusal>(inputs.length);
    order.forEach((index, position) => (byInput[index] = rows[position].cast));
    return byInput;
  });

  constructor(
    private readonly store: RoomStore,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly outbox: RoomEventsOutbox,
    private readonly commands: CommandLog,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly config: PlatformConfig,
    private readonly history: HistoryService,
    private readonly limits: LimitsService,
  ) {}

  async start(roomId: string, hostId: string, search: StartRoomDto, key: string): Promise<PlacesAnswer> {
    return this.commands.once(key, async () => {
      const { groupId } = await this.store.transaction((manager) =>
        this.assertHostInState(manager, roomId, hostId, 'waiting'),
      );
      const { decisionRule, preferNewPlaces, ...nearby } = search;
      // Searched outside the transaction: no row lock is held while a provider answers.
      const wanted = search.maxResultCount ?? MAX_RESULT_COUNT;
      const found = await callService(this.services, PLACES.search, { ...nearby, maxResultCount: wanted });
      if (found.places.length === 0) fail(404, ROOM_MESSAGES.noPlaces);
      const saved = await this.limits.savedOfRoom(roomId);
      // With limits set, the search's next pages stand in for the places they will leave out.
      const candidates = [...found.places];
      const limitsNow = await this.limits.everyone(this.store.manager, roomId, saved);
      for (
        let page = 1, next = found.nextOffset;
        page < LIMITED_SEARCH_PAGES &&
        next !== null &&
        applyLimits(candidates, limitsNow, wanted).kept.length < wanted;
        page++
      ) {
        const more = await callService(this.services, PLACES.search, {
          ...nearby,
          maxResultCount: wanted,
          offset: next,
        });
        candidates.push(...more.places);
        next = more.nextOffset;
      }
      // The group's (or else the host's) recent picks are marked ("You picked this 12 days ago"), and
      // last if they asked so.
      const { picks } = await this.history.recentPicks(hostId, groupId);
      const pickedAt = new Map(picks.map((p) => [p.placeId, p.pickedAt]));
      const marked = [...new Map(candidates.map((p) => [p.id, p])).values()].map((p) =>
        pickedAt.has(p.id) ? { ...p, lastPickedAt: pickedAt.get(p.id) } : p,
      );

      const answer = await this.store.transaction(async (manager) => {
        const room = await this.assertHostInState(manager, roomId, hostId, 'waiting');
        const rule = decisionRule ?? room.decisionRule;
        // Read under the room's lock: a member's limits set while the search ran still count.
        const everyone = await this.limits.everyone(manager, roomId, saved);
        const { kept, leftOut } = applyLimits(marked, everyone, wanted);
        if (kept.length === 0) fail(404, LIMITS_MESSAGES.everyPlaceLeftOut);
        const places = preferNewPlaces ? newPlacesFirst(kept) : kept;
        const started = { ...found, places, ...(leftOut > 0 ? { leftOutByLimits: leftOut } : {}) };
        await manager
          .getRepository(RoomPlace)
          .insert(places.map((data, position) => ({ roomId, position, placeId: data.id, data })));
        await manager.getRepository(Room).update(
          { id: roomId },
          {
            state: 'voting',
            batchIndex: 0,
            search: { ...nearby },
            decisionRule: rule,
            leftOutByLimits: leftOut,
          },
        );
        await this.outbox.write(manager, [
          {
            roomId,
            event: ROOM_EVENTS.started,
            data: {
              places,
              batchIndex: 0,
              demo: found.demo,
              decisionRule: rule,
              ...(leftOut > 0 ? { leftOutByLimits: leftOut } : {}),
            },
          },
        ]);
        await this.commands.record(manager, [{ key, answer: started }]);
        return started;
      });
      this.outbox.wake();
      return answer;
    });
  }

  async vote(
    roomId: string,
    userId: string,
    votes: VoteItemDto[],
    key: string,
  ): Promise<{ voted: true; usersVoted: string[] }> {
    return this.commands.once(key, async () => {
      const cast = await this.ballots.call({ roomId, userId, votes, key, traceparent: activeTraceparent() });
      if ('error' in cast) refuse(cast);
      // As the vote statement records it in the command log.
      return { voted: true as const, usersVoted: cast.usersVoted };
    });
  }

  /** Moves the room to its next batch; when none is left, says so and changes nothing. */
  async nextBatch(
    roomId: string,
    hostId: string,
    nextBatchIndex: number,
    key: string,
  ): Promise<NextBatchAnswer> {
    return this.commands.once(key, () => this.moveToBatch(roomId, hostId, nextBatchIndex, key));
  }

  private async moveToBatch(
    roomId: string,
    hostId: string,
    nextBatchIndex: number,
    key: string,
  ): Promise<NextBatchAnswer> {
    const outcome = await this.store.transaction(async (manager) => {
      const room = await this.store.lockRoom(manager, roomId);
      if (room.createdByUserId !== hostId) fail(403, ROOM_MESSAGES.hostOnly);
      // A retried request that already moved the room answers the same again.
      if (room.state === 'voting' && room.batchIndex === nextBatchIndex) {
        return { batchIndex: room.batchIndex, noMorePlaces: false, moved: false };
      }
      if (room.state !== 'results') fail(409, ROOM_MESSAGES.notResults);
      if (nextBatchIndex !== room.batchIndex + 1) fail(400, `The next batch is ${room.batchIndex + 1}.`);
      const placesCount = await manager.getRepository(RoomPlace).countBy({ roomId });
      if (nextBatchIndex * PLACES_PER_BATCH >= placesCount) {
        return { batchIndex: room.batchIndex, noMorePlaces: true, moved: false };
      }
      await manager
        .getRepository(Room)
        .update({ id: roomId }, { state: 'voting', batchIndex: nextBatchIndex });
      await this.outbox.write(manager, [
        { roomId, event: ROOM_EVENTS.nextBatch, data: { nextBatchIndex, batchIndex: nextBatchIndex } },
      ]);
      await this.commands.record(manager, [
        { key, answer: { batchIndex: nextBatchIndex, noMorePlaces: false } },
      ]);
      return { batchIndex: nextBatchIndex, noMorePlaces: false, moved: true };
    });
    if (outcome.moved) this.outbox.wake();
    return { batchIndex: outcome.batchIndex, noMorePlaces: outcome.noMorePlaces };
  }

  /**
   * The host reminds the members who have not voted on the batch: a NUDGE event naming them. Each member
   * can be nudged once per NUDGE_INTERVAL_SECONDS (a Redis key per member that expires), so a host who
   * keeps pressing does not flood anyone; nudging when all of them were nudged just now answers 429.
   */
  async nudge(roomId: string, hostId: string): Promise<NudgeAnswer> {
    const { pending, hostName, batchIndex } = await this.store.consistentRead(async (manager) => {
      const room = await manager.getRepository(Room).findOneBy({ id: roomId });
      if (!room) fail(404, ROOM_MESSAGES.roomNotFound);
      if (room.state === 'closed') fail(410, ROOM_MESSAGES.roomClosed);
      if (room.createdByUserId !== hostId) fail(403, ROOM_MESSAGES.hostOnly);
      if (room.state !== 'voting') fail(409, ROOM_MESSAGES.notVoting);
      const users = await this.store.presentUsers(manager, roomId);
      const voted = new Set(await this.store.usersVoted(manager, room));
      return {
        pending: users.filter((u) => u.userId !== hostId && !voted.has(u.userId)).map((u) => u.userId),
        hostName: users.find((u) => u.userId === hostId)?.userName ?? 'The host',
        batchIndex: room.batchIndex,
      };
    });
    if (pending.length === 0) fail(409, ROOM_MESSAGES.everyoneVoted);

    // The room id is the hash tag: the claims below are one transaction, in one slot on Redis Cluster.
    const slot = (userId: string) => `${this.config.REDIS_PREFIX}:rooms:nudge:{${roomId}}:${userId}`;
    const claims = await this.redis
      .multi(pending.map((userId) => ['set', slot(userId), '1', 'EX', NUDGE_INTERVAL_SECONDS, 'NX']))
      .exec();
    const nudged = pending.filter((_, index) => claims?.[index]?.[1] === 'OK');
    if (nudged.length === 0) fail(429, ROOM_MESSAGES.nudgedRecently);
    try {
      await this.store.transaction(async (manager) => {
        // Under the room's lock, as every event of a room is written: its outbox ids then grow in commit
        // order, which the publish relies on (it drops an event whose id is below one already published).
        await this.store.lockRoom(manager, roomId);
        await this.outbox.write(manager, [
          { roomId, event: ROOM_EVENTS.nudge, data: { userIds: nudged, hostName, batchIndex } },
        ]);
      });
    } catch (err) {
      // Not sent: free the slots, so the host's retry is not refused as too soon.
      await this.redis.del(...nudged.map(slot)).catch(() => undefined);
      throw err;
    }
    this.outbox.wake();
    return { nudged, pending };
  }

  private async assertHostInState(
    manager: EntityManager,
    roomId: string,
    hostId: string,
    state: Room['state'],
  ): Promise<Room> {
    const room = await this.store.lockRoom(manager, roomId);
    if (room.createdByUserId !== hostId) fail(403, ROOM_MESSAGES.hostOnly);
    if (room.state !== state) fail(409, ROOM_MESSAGES.alreadyStarted);
    return room;
  }
}
