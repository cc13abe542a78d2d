import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  MAX_RESULT_COUNT,
  NextBatchAnswer,
  PLACES,
  PlacesAnswer,
  PLACES_PER_BATCH,
  ROOM_EVENTS,
  ROOM_MESSAGES,
  StartRoomDto,
  VoteItemDto,
} from '@forkvote/contracts';
import { callService, fail, SERVICE_CLIENT } from '@forkvote/platform';
import { EntityManager } from 'typeorm';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { RoomsService } from './rooms.service';

@Injectable()
export class VotingService {
  constructor(
    private readonly rooms: RoomsService,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
  ) {}

  private get dataSource() {
    return this.rooms.dataSource;
  }

  async start(roomId: string, hostId: string, search: StartRoomDto): Promise<PlacesAnswer> {
    await this.dataSource.transaction((manager) =>
      this.assertHostInState(manager, roomId, hostId, 'waiting'),
    );
    // Searched outside the transaction: no row lock is held while a provider answers.
    const found = await callService<PlacesAnswer>(this.services, PLACES.search, {
      ...search,
      maxResultCount: search.maxResultCount ?? MAX_RESULT_COUNT,
    });
    if (found.places.length === 0) fail(404, ROOM_MESSAGES.noPlaces);
    const places = [...new Map(found.places.map((p) => [p.id, p])).values()];

    await this.dataSource.transaction(async (manager) => {
      await this.assertHostInState(manager, roomId, hostId, 'waiting');
      await manager
        .getRepository(RoomPlace)
        .insert(places.map((data, position) => ({ roomId, position, placeId: data.id, data })));
      await manager
        .getRepository(Room)
        .update({ id: roomId }, { state: 'voting', batchIndex: 0, search: { ...search } });
    });
    await this.rooms.publish(roomId, ROOM_EVENTS.started, { places, batchIndex: 0, demo: found.demo });
    return { ...found, places };
  }

  async vote(
    roomId: string,
    userId: string,
    votes: VoteItemDto[],
  ): Promise<{ voted: true; usersVoted: string[] }> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      // One statement locks the room and reads what a vote needs: membership and the batch's places.
      const [row] = (await manager.query(
        `SELECT r.id, r.code, r.state, r.batch_index, r.created_by_user_id,
                EXISTS (SELECT 1 FROM "rooms"."members" m
                         WHERE m.room_id = r.id AND m.user_id = $2 AND m.left_at IS NULL) AS member,
                ARRAY(SELECT p.place_id FROM "rooms"."room_places" p
                       WHERE p.room_id = r.id AND p.position BETWEEN r.batch_index * $3 AND r.batch_index * $3 + $3 - 1) AS batch
           FROM "rooms"."rooms" r WHERE r.id = $1 FOR UPDATE OF r`,
        [roomId, userId, PLACES_PER_BATCH],
      )) as {
        id: string;
        code: string;
        state: Room['state'];
        batch_index: number;
        created_by_user_id: string;
        member: boolean;
        batch: string[];
      }[];
      if (!row) fail(404, ROOM_MESSAGES.roomNotFound);
      if (row.state === 'closed') fail(410, ROOM_MESSAGES.roomClosed);
      if (!row.member) fail(403, ROOM_MESSAGES.notMember);
      if (row.state !== 'voting') fail(409, ROOM_MESSAGES.notVoting);

      const batch = new Set(row.batch);
      const voted = new Set(votes.map((v) => v.placeId));
      if (
        voted.size !== votes.length ||
        voted.size !== batch.size ||
        [...voted].some((id) => !batch.has(id))
      ) {
        fail(400, ROOM_MESSAGES.voteAllPlaces);
      }
      // The ballot and its votes in one statement; no row back means this member already voted.
      const inserted = (await manager.query(
        `WITH ballot AS (
           INSERT INTO "rooms"."ballot_submissions" (room_id, batch_index, user_id) VALUES ($1, $2, $3)
           ON CONFLICT DO NOTHING RETURNING 1)
         INSERT INTO "rooms"."votes" (room_id, batch_index, user_id, place_id, vote_type)
         SELECT $1, $2, $3, v.place_id, v.vote_type
           FROM unnest($4::varchar[], $5::varchar[]) AS v(place_id, vote_type)
          WHERE EXISTS (SELECT 1 FROM ballot)
         RETURNING 1`,
        [roomId, row.batch_index, userId, votes.map((v) => v.placeId), votes.map((v) => v.voteType)],
      )) as unknown[];
      if (inserted.length === 0) fail(409, ROOM_MESSAGES.alreadyVoted);
      const room = {
        id: row.id,
        code: row.code,
        state: row.state,
        batchIndex: row.batch_index,
        createdByUserId: row.created_by_user_id,
      } as Room;
      return this.rooms.progressAndCompletion(manager, room);
    });
    await this.rooms.publish(roomId, ROOM_EVENTS.userVoted, { userId, usersVoted: outcome.usersVoted });
    if (outcome.ballots) await this.rooms.publish(roomId, ROOM_EVENTS.ballotsSubmitted, outcome.ballots);
    return { voted: true, usersVoted: outcome.usersVoted };
  }

  /** Moves the room to its next batch; when none is left, says so and changes nothing. */
  async nextBatch(roomId: string, hostId: string, nextBatchIndex: number): Promise<NextBatchAnswer> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const room = await this.rooms.lockRoom(manager, roomId);
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
      return { batchIndex: nextBatchIndex, noMorePlaces: false, moved: true };
    });
    if (outcome.moved) {
      await this.rooms.publish(roomId, ROOM_EVENTS.nextBatch, {
        nextBatchIndex: outcome.batchIndex,
        batchIndex: outcome.batchIndex,
      });
    }
    return { batchIndex: outcome.batchIndex, noMorePlaces: outcome.noMorePlaces };
  }

  private async assertHostInState(
    manager: EntityManager,
    roomId: string,
    hostId: string,
    state: Room['state'],
  ): Promise<Room> {
    const room = await this.rooms.lockRoom(manager, roomId);
    if (room.createdByUserId !== hostId) fail(403, ROOM_MESSAGES.hostOnly);
    if (room.state !== state) fail(409, ROOM_MESSAGES.alreadyStarted);
    return room;
  }
}
