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
import { Between, EntityManager, IsNull, QueryFailedError } from 'typeorm';
import { Member } from './entities/member.entity';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { BallotSubmission, Vote } from './entities/vote.entity';
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
      const room = await this.rooms.lockRoom(manager, roomId);
      const member = await manager.getRepository(Member).findOneBy({ roomId, userId, leftAt: IsNull() });
      if (!member) fail(403, ROOM_MESSAGES.notMember);
      if (room.state !== 'voting') fail(409, ROOM_MESSAGES.notVoting);

      const first = room.batchIndex * PLACES_PER_BATCH;
      const places = await manager.getRepository(RoomPlace).find({
        where: { roomId, position: Between(first, first + PLACES_PER_BATCH - 1) },
        select: { placeId: true },
      });
      const batch = new Set(places.map((p) => p.placeId));
      const voted = new Set(votes.map((v) => v.placeId));
      if (
        voted.size !== votes.length ||
        voted.size !== batch.size ||
        [...voted].some((id) => !batch.has(id))
      ) {
        fail(400, ROOM_MESSAGES.voteAllPlaces);
      }
      try {
        await manager.getRepository(BallotSubmission).insert({ roomId, batchIndex: room.batchIndex, userId });
      } catch (err) {
        if (err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505') {
          fail(409, ROOM_MESSAGES.alreadyVoted);
        }
        throw err;
      }
      await manager.getRepository(Vote).insert(
        votes.map((v) => ({
          roomId,
          batchIndex: room.batchIndex,
          userId,
          placeId: v.placeId,
          voteType: v.voteType,
        })),
      );
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
