import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  computeBallots,
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
import { callService, fail, preparedQuery, SERVICE_CLIENT } from '@forkvote/platform';
import { EntityManager } from 'typeorm';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { BatchResultsInput } from './ballots';
import { Batcher } from './batcher';
import { CommandLog } from './outbox/command-log';
import { RoomEvent, RoomEventsOutbox } from './outbox/room-events.outbox';
import { refuse, RoomRefusal, RoomStore } from './room.store';

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What `rooms.cast_ballot` answers; `places` and `votes` only for the ballot that closed the batch. */
type CastBallot = { batchIndex: number; usersVoted: string[] } & Partial<BatchResultsInput>;

interface BallotInput {
  roomId: string;
  userId: string;
  votes: VoteItemDto[];
  /** The command's key (see CommandLog). */
  key: string;
}

@Injectable()
export class VotingService {
  /**
   * Ballots arriving together run as one statement (see `rooms.cast_ballot` in the migrations), taking
   * their rooms' locks in room id order so that two batches never wait for each other in a circle; their
   * USER_VOTED (and, for a batch's last ballot, BALLOTS_SUBMITTED) events and their answers are written in
   * the same transaction.
   */
  private readonly ballots = new Batcher<BallotInput, CastBallot | RoomRefusal>(async (inputs) => {
    const order = inputs.map((_, index) => index).sort((a, b) => compare(inputs[a].roomId, inputs[b].roomId));
    const sorted = order.map((index) => inputs[index]);
    const outputs = await this.store.transaction(async (manager) => {
      const rows = await preparedQuery<{ cast: CastBallot | RoomRefusal }>(
        manager,
        'rooms.vote-batch',
        `SELECT "rooms"."cast_ballot"(a.room_id, a.user_id,
                    ARRAY(SELECT jsonb_array_elements_text(a.votes->0)), ARRAY(SELECT jsonb_array_elements_text(a.votes->1)),
                    $4) AS cast
             FROM unnest($1::uuid[], $2::varchar[], $3::jsonb[]) WITH ORDINALITY AS a(room_id, user_id, votes, n)
            ORDER BY a.n`,
        [
          sorted.map((i) => i.roomId),
          sorted.map((i) => i.userId),
          sorted.map((i) => JSON.stringify([i.votes.map((v) => v.placeId), i.votes.map((v) => v.voteType)])),
          PLACES_PER_BATCH,
        ],
      );
      const events: RoomEvent[] = [];
      const answers: { key: string; answer: object }[] = [];
      sorted.forEach((input, position) => {
        const cast = rows[position].cast;
        if ('error' in cast) return;
        const { roomId, userId } = input;
        events.push({ roomId, event: ROOM_EVENTS.userVoted, data: { userId, usersVoted: cast.usersVoted } });
        if (cast.places && cast.votes) {
          const ballots = computeBallots(cast.batchIndex, cast.places, cast.votes);
          events.push({ roomId, event: ROOM_EVENTS.ballotsSubmitted, data: ballots });
        }
        answers.push({ key: input.key, answer: { voted: true, usersVoted: cast.usersVoted } });
      });
      await this.outbox.write(manager, events);
      await this.commands.record(manager, answers);
      const byInput = new Array<CastBallot | RoomRefusal>(inputs.length);
      order.forEach((index, position) => (byInput[index] = rows[position].cast));
      return byInput;
    });
    this.outbox.wake();
    return outputs;
  });

  constructor(
    private readonly store: RoomStore,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly outbox: RoomEventsOutbox,
    private readonly commands: CommandLog,
  ) {}

  async start(roomId: string, hostId: string, search: StartRoomDto, key: string): Promise<PlacesAnswer> {
    return this.commands.once(key, async () => {
      await this.store.transaction((manager) => this.assertHostInState(manager, roomId, hostId, 'waiting'));
      // Searched outside the transaction: no row lock is held while a provider answers.
      const found = await callService(this.services, PLACES.search, {
        ...search,
        maxResultCount: search.maxResultCount ?? MAX_RESULT_COUNT,
      });
      if (found.places.length === 0) fail(404, ROOM_MESSAGES.noPlaces);
      const places = [...new Map(found.places.map((p) => [p.id, p])).values()];
      const answer = { ...found, places };

      await this.store.transaction(async (manager) => {
        await this.assertHostInState(manager, roomId, hostId, 'waiting');
        await manager
          .getRepository(RoomPlace)
          .insert(places.map((data, position) => ({ roomId, position, placeId: data.id, data })));
        await manager
          .getRepository(Room)
          .update({ id: roomId }, { state: 'voting', batchIndex: 0, search: { ...search } });
        await this.outbox.write(manager, [
          { roomId, event: ROOM_EVENTS.started, data: { places, batchIndex: 0, demo: found.demo } },
        ]);
        await this.commands.record(manager, [{ key, answer }]);
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
      const cast = await this.ballots.call({ roomId, userId, votes, key });
      if ('error' in cast) refuse(cast);
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
