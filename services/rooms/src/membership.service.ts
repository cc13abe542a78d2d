import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  BILLING,
  JoinRoomAnswer,
  ROOM_EVENTS,
  ROOM_MESSAGES,
  ROOM_TOKEN_LIFETIME_SECONDS,
  RoomSnapshot,
  WaitingRoom,
} from '@forkvote/contracts';
import {
  activeTraceparent,
  callService,
  fail,
  preparedQuery,
  PlatformConfig,
  REDIS,
  SERVICE_CLIENT,
  tokenKeys,
} from '@forkvote/platform';
import { lastRoomEventId } from '@forkvote/room-events';
import Redis from 'ioredis';
import { createHash, randomInt } from 'node:crypto';
import { EntityManager, IsNull, Not, QueryFailedError } from 'typeorm';
import { Member } from './entities/member.entity';
import { RoomPlace } from './entities/room-place.entity';
import { Room } from './entities/room.entity';
import { ballotsOf } from './ballots';
import { MemberRow, refuse, RoomRefusal, RoomStore, toWaitingRoom } from './room.store';
import { Batcher } from './batcher';
import { CommandLog, guestIdFor, KEY_REUSED, splitKey } from './outbox/command-log';
import { RoomEvent, RoomEventsOutbox } from './outbox/room-events.outbox';
import { DecisionsService } from './decisions.service';

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A cryptographically random 6-character room code. */
export function newRoomCode(): string {
  return Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

const isUniqueViolation = (err: unknown) =>
  err instanceof QueryFailedError && (err.driverError as { code?: string }).code === '23505';

/** What `rooms.join_room` answers when the member is in. */
interface JoinedRoom {
  room: Pick<Room, 'id' | 'code' | 'state' | 'batchIndex' | 'createdByUserId' | 'decisionRule'>;
  members: MemberRow[];
  placesCount: number;
}

/** The SPEC's join answer for a member the join function let in. */
function joinAnswer(joined: JoinedRoom, who: { userId: string; userName: string }): JoinRoomAnswer {
  return {
    waitingRoom: toWaitingRoom(joined.room, joined.members, joined.placesCount),
    userId: who.userId,
    userName: who.userName,
  };
}

export interface MemberAnswer extends JoinRoomAnswer {
  /** For the gateway's httpOnly cookie; never sent to the browser in a body. */
  memberToken: string;
}

interface JoinInput {
  code: string;
  userId: string;
  userName: string;
  /** The command's key (see CommandLog). */
  key: string;
  /** The trace of the call (joins run batched, outside their callers' contexts). */
  traceparent: string | null;
}

/** A join answered before under the same key: its recorded answer (tokens are signed again, never stored). */
interface ReplayedJoin {
  replayed: JoinRoomAnswer;
}

type JoinOutput = JoinedRoom | RoomRefusal | ReplayedJoin;

@Injectable()
export class MembershipService {
  /**
   * Joins arriving together run as one statement (see `rooms.join_room` in the migrations), in one
   * transaction with their USER_JOINED events and recorded answers. A join whose key was answered before
   * (a redelivery, or the client's retry) is answered from the record and not run again.
   */
  private readonly joins = new Batcher<JoinInput, JoinOutput>('join', async (inputs) => {
    const outputs = await this.store.transaction(async (manager) => {
      const recorded = await this.commands.find(
        inputs.map((i) => i.key),
        manager,
      );
      const fresh = inputs.filter((i) => !recorded.has(i.key));
      // In room id order, as ballots take their locks (PostgreSQL runs volatile calls after the sort).
      const rows =
        fresh.length === 0
          ? []
          : await preparedQuery<{ n: string; joined: JoinedRoom | RoomRefusal }>(
              manager,
              'rooms.join-batch',
              `SELECT a.n, "rooms"."join_room"(a.code, a.user_id, a.user_name) AS joined
                 FROM unnest($1::varchar[], $2::varchar[], $3::varchar[]) WITH ORDINALITY AS a(code, user_id, user_name, n)
                 LEFT JOIN "rooms"."rooms" r ON r.code = a.code AND r.state <> 'closed'
                ORDER BY r.id NULLS FIRST, a.n`,
              [fresh.map((i) => i.code), fresh.map((i) => i.userId), fresh.map((i) => i.userName)],
            );
      const joined = new Map<JoinInput, JoinedRoom | RoomRefusal>();
      for (const row of rows) joined.set(fresh[Number(row.n) - 1], row.joined);
      const events: RoomEvent[] = [];
      const answers: { key: string; answer: object }[] = [];
      for (const input of fresh) {
        const result = joined.get(input)!;
        if ('error' in result) continue;
        const answer = joinAnswer(result, input);
        events.push({
          roomId: result.room.id,
          event: ROOM_EVENTS.userJoined,
          data: { users: answer.waitingRoom.users, userId: input.userId, userName: input.userName },
          traceparent: input.traceparent,
        });
        answers.push({ key: input.key, answer: { roomId: result.room.id, ...answer } });
      }
      await this.outbox.write(manager, events);
      await this.commands.record(manager, answers);
      return inputs.map((input): JoinOutput => {
        const answer = recorded.get(input.key);
        if (answer === KEY_REUSED) return { error: 'idempotencyKeyReused' };
        return answer ? { replayed: answer as JoinRoomAnswer } : joined.get(input)!;
      });
    });
    this.outbox.wake();
    return outputs;
  });

  constructor(
    private readonly config: PlatformConfig,
    private readonly store: RoomStore,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
    private readonly outbox: RoomEventsOutbox,
    private readonly commands: CommandLog,
    private readonly decisions: DecisionsService,
  ) {}

  /** A retry with the same key finds the room it made (by the key's hash) and answers it again. */
  async create(
    host: { userId: string },
    userName: string,
    key: string,
  ): Promise<MemberAnswer & { token: string }> {
    const entitlement = await callService(this.services, BILLING.entitlement, {
      userId: host.userId,
    });
    if (!entitlement.canCreateRooms) fail(403, ROOM_MESSAGES.mustSubscribe);

    // The same key with another name: refused, never the room made for the first.
    if ((await this.commands.find([key])).get(key) === KEY_REUSED) {
      fail(422, ROOM_MESSAGES.idempotencyKeyReused);
    }
    const createRequestId = createHash('sha256').update(splitKey(key).key).digest('hex');
    const rooms = this.store.manager.getRepository(Room);
    let room = await rooms.findOneBy({ createRequestId });
    // Read in the creating transaction (for its USER_JOINED) and reused; a retry that finds its room reads it.
    let waitingRoom: WaitingRoom | null = null;
    for (let attempt = 0; !room && attempt < 10; attempt++) {
      try {
        room = await this.store.transaction(async (manager) => {
          const created = await manager.getRepository(Room).save({
            code: newRoomCode(),
            state: 'waiting',
            createdByUserId: host.userId,
            createRequestId,
          });
          await manager.getRepository(Member).insert({ roomId: created.id, userId: host.userId, userName });
          waitingRoom = await this.store.waitingRoom(manager, created);
          await this.outbox.write(manager, [
            {
              roomId: created.id,
              event: ROOM_EVENTS.userJoined,
              data: { users: waitingRoom.users, userId: host.userId, userName },
            },
          ]);
          await this.commands.record(manager, [{ key, answer: { roomId: created.id } }]);
          return created;
        });
        this.outbox.wake();
      } catch (err) {
        waitingRoom = null; // read in a transaction that did not commit
        if (!isUniqueViolation(err)) throw err;
        room = await rooms.findOneBy({ createRequestId }); // null unless a retry won the race
      }
    }
    if (!room) fail(503, ROOM_MESSAGES.failedCreate);

    waitingRoom ??= await this.store.waitingRoom(this.store.manager, room);
    const hostName = waitingRoom.createdBy.userName;
    return {
      token: tokenKeys(this.config).sign(
        'room-host',
        { roomId: room.id, code: room.code, userId: host.userId },
        ROOM_TOKEN_LIFETIME_SECONDS,
      ),
      memberToken: this.memberToken(room, host.userId, hostName),
      waitingRoom,
      userId: host.userId,
      userName: hostName,
    };
  }

  /**
   * A logged-in user joins as their account; a guest keeps the id of their earlier join of this room if
   * they still hold its cookie, and otherwise gets a new one. Nobody can pick someone else's id.
   */
  async join(
    code: string,
    userName: string,
    identity: { accountId?: string; cookieUserId?: string },
    key: string,
  ): Promise<MemberAnswer> {
    const userId = identity.accountId ?? identity.cookieUserId ?? guestIdFor(key);
    const joined = await this.joins.call({ code, userId, userName, key, traceparent: activeTraceparent() });
    if ('replayed' in joined) {
      const { roomId, ...answer } = joined.replayed as JoinRoomAnswer & { roomId: string };
      const room = { id: roomId, code: answer.waitingRoom.waitingRoomId };
      return { ...answer, memberToken: this.memberToken(room, answer.userId, answer.userName) };
    }
    if ('error' in joined) refuse(joined);
    const answer = joinAnswer(joined, { userId, userName });
    return { ...answer, memberToken: this.memberToken(joined.room, userId, userName) };
  }

  /** The host leaving closes the room (SPEC §4: USER_LEFT of the host clears everyone's room). */
  async leave(roomId: string, userId: string, key: string): Promise<{ left: true }> {
    return this.commands.once(key, async () => {
      await this.store.transaction(async (manager) => {
        const room = await this.store.lockRoom(manager, roomId);
        const member = await manager.getRepository(Member).findOneBy({ roomId, userId, leftAt: IsNull() });
        if (!member) fail(403, ROOM_MESSAGES.notMember);
        await manager.getRepository(Member).update({ roomId, userId }, { leftAt: new Date() });
        const isHost = room.createdByUserId === userId;
        if (isHost)
          await manager.getRepository(Room).update({ id: roomId }, { state: 'closed', closedAt: new Date() });
        const users = isHost ? [] : await this.store.presentUsers(manager, roomId);
        const ballots =
          !isHost && room.state === 'voting' ? await this.store.completeIfEveryoneVoted(manager, room) : null;
        await this.outbox.write(manager, [
          {
            roomId,
            event: ROOM_EVENTS.userLeft,
            data: { userId, userName: member.userName, users, isHost, roomClosed: isHost },
          },
          ...(ballots ? [{ roomId, event: ROOM_EVENTS.ballotsSubmitted, data: ballots }] : []),
        ]);
        await this.commands.record(manager, [{ key, answer: { left: true } }]);
      });
      this.outbox.wake();
      return { left: true as const };
    });
  }

  /** What a member needs after a reload: the room, its places, who voted, the results if any. */
  /**
   * Everything a member needs to catch up, and the id of the last event it reflects. The id is read first
   * and the rows after it, in one REPEATABLE READ transaction: whatever happens in between is both in the
   * rows and after the id, so a client that resumes its stream from the id sees it again (the web app
   * applies events idempotently) and never misses one.
   */
  async snapshot(roomId: string, userId: string): Promise<RoomSnapshot> {
    const lastEventId = await lastRoomEventId(this.redis, this.config.REDIS_PREFIX, roomId);
    return this.store.consistentRead((manager) => this.readSnapshot(manager, roomId, userId, lastEventId));
  }

  private async readSnapshot(
    manager: EntityManager,
    roomId: string,
    userId: string,
    lastEventId: string | null,
  ): Promise<RoomSnapshot> {
    const room = await manager.getRepository(Room).findOneBy({ id: roomId });
    if (!room || room.state === 'closed') fail(404, ROOM_MESSAGES.roomClosed);
    const member = await manager.getRepository(Member).findOneBy({ roomId, userId, leftAt: IsNull() });
    if (!member) fail(403, ROOM_MESSAGES.notMember);
    const places = await manager
      .getRepository(RoomPlace)
      .find({ where: { roomId }, order: { position: 'ASC' } });
    const usersVoted = await this.store.usersVoted(manager, room);
    return {
      waitingRoom: await this.store.waitingRoom(manager, room),
      userId,
      userName: member.userName,
      isHost: room.createdByUserId === userId,
      places: places.map((p) => p.data),
      usersVoted,
      voted: usersVoted.includes(userId),
      ballots: room.state === 'results' ? await ballotsOf(manager, room) : null,
      lastEventId,
      ...(room.leftOutByLimits > 0 ? { leftOutByLimits: room.leftOutByLimits } : {}),
      ...(await this.decisions.decisionState(manager, room)),
    };
  }

  async isMember(roomId: string, userId: string): Promise<{ member: boolean }> {
    const member = await this.store.manager.getRepository(Member).findOne({
      where: { roomId, userId, leftAt: IsNull(), room: { state: Not('closed') } },
      relations: { room: true },
    });
    return { member: member !== null };
  }

  private memberToken(room: Pick<Room, 'id' | 'code'>, userId: string, userName: string): string {
    return tokenKeys(this.config).sign(
      'room-member',
      { roomId: room.id, code: room.code, userId, userName },
      ROOM_TOKEN_LIFETIME_SECONDS,
    );
  }
}
