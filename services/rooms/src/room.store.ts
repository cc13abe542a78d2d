import { Injectable } from '@nestjs/common';
import {
  BallotsInput,
  DEFAULT_DECISION_RULE,
  ROOM_MESSAGES,
  RoomUser,
  WaitingRoom,
} from '@forkvote/contracts';
import { fail, preparedQuery } from '@forkvote/platform';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { batchResultsInput } from './ballots';
import { Member } from './entities/member.entity';
import { Room } from './entities/room.entity';

/** Members as the join function and the wire-shape query list them: id, name, present; in join order. */
export type MemberRow = [userId: string, userName: string, present: boolean];

/** What the hot-path functions answer when they refuse: the key of the SPEC's message. */
export interface RoomRefusal {
  error:
    | 'roomNotFound'
    | 'roomClosed'
    | 'notMember'
    | 'notVoting'
    | 'voteAllPlaces'
    | 'alreadyVoted'
    | 'idempotencyKeyReused';
}

const REFUSAL_STATUS: Record<RoomRefusal['error'], number> = {
  roomNotFound: 404,
  roomClosed: 410,
  notMember: 403,
  notVoting: 409,
  voteAllPlaces: 400,
  alreadyVoted: 409,
  idempotencyKeyReused: 422,
};

/** Answers a refusal of a hot-path function with its status and the SPEC's message. */
export function refuse(refusal: RoomRefusal): never {
  fail(REFUSAL_STATUS[refusal.error], ROOM_MESSAGES[refusal.error]);
}

export function toWaitingRoom(
  room: Pick<Room, 'code' | 'state' | 'batchIndex' | 'createdByUserId'> & Partial<Pick<Room, 'decisionRule'>>,
  members: MemberRow[],
  placesCount: number,
): WaitingRoom {
  const host = members.find(([userId]) => userId === room.createdByUserId);
  return {
    waitingRoomId: room.code,
    users: members.filter(([, , present]) => present).map(([userId, userName]) => ({ userId, userName })),
    createdBy: { userId: room.createdByUserId, userName: host?.[1] ?? '' },
    state: room.state,
    batchIndex: room.batchIndex,
    placesCount: Number(placesCount),
    decisionRule: room.decisionRule ?? DEFAULT_DECISION_RULE,
  };
}

/**
 * The rooms' data as both use cases (membership and voting) need it: the room row under its lock, who is
 * present, the room in the SPEC's wire shape, and the batch rules (asked of the SQL functions in sql/, so
 * each rule is written once). Writes of events and answers go through the outbox and the command log.
 */
@Injectable()
export class RoomStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (the change, its outbox events and its recorded answer commit together). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Runs one prepared statement as a transaction of its own: one round trip, all of it or nothing. */
  statement<Row>(name: string, text: string, values: unknown[]): Promise<Row[]> {
    return preparedQuery<Row>(this.dataSource, name, text, values);
  }

  /** Runs `reads` in one REPEATABLE READ transaction: every read sees the same moment of the room. */
  consistentRead<T>(reads: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', reads);
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  async lockRoom(manager: EntityManager, roomId: string): Promise<Room> {
    const room = await manager
      .getRepository(Room)
      .findOne({ where: { id: roomId }, lock: { mode: 'pessimistic_write' } });
    if (!room) fail(404, ROOM_MESSAGES.roomNotFound);
    if (room.state === 'closed') fail(410, ROOM_MESSAGES.roomClosed);
    return room;
  }

  async presentUsers(manager: EntityManager, roomId: string): Promise<RoomUser[]> {
    const members = await manager.getRepository(Member).find({
      where: { roomId, leftAt: IsNull() },
      order: { joinedAt: 'ASC' },
    });
    return members.map((m) => ({ userId: m.userId, userName: m.userName }));
  }

  /** Present members who have sent their ballot for the room's current batch, in the order they voted. */
  async usersVoted(manager: EntityManager, room: Room): Promise<string[]> {
    return (await this.batchProgress(manager, room)).voted;
  }

  /** Who of the present members has voted on the current batch, and whether that is everyone (sql/10-…). */
  private async batchProgress(manager: EntityManager, room: Room) {
    const [progress] = (await manager.query(`SELECT * FROM "rooms"."batch_progress"($1, $2)`, [
      room.id,
      room.batchIndex,
    ])) as { present: number; voted: string[]; complete: boolean }[];
    return progress;
  }

  /**
   * When every present member has voted, closes the batch: state results, and what its BALLOTS_SUBMITTED is
   * computed from (the outbox holds that; see RoomEvent).
   */
  async completeIfEveryoneVoted(manager: EntityManager, room: Room): Promise<BallotsInput | null> {
    if (!(await this.batchProgress(manager, room)).complete) return null;
    await manager.getRepository(Room).update({ id: room.id }, { state: 'results' });
    return batchResultsInput(manager, room);
  }

  /** The room as the SPEC's wire shape, from one query: present members, the host's name, the place count. */
  async waitingRoom(manager: EntityManager, room: Room): Promise<WaitingRoom> {
    const rows: { user_id: string; user_name: string; present: boolean; places: string }[] =
      await manager.query(
        `SELECT m.user_id, m.user_name, m.left_at IS NULL AS present,
              (SELECT count(*) FROM "rooms"."room_places" p WHERE p.room_id = $1) AS places
         FROM "rooms"."members" m
        WHERE m.room_id = $1 AND (m.left_at IS NULL OR m.user_id = $2)
        ORDER BY m.joined_at`,
        [room.id, room.createdByUserId],
      );
    return toWaitingRoom(
      room,
      rows.map((r) => [r.user_id, r.user_name, r.present]),
      Number(rows[0]?.places ?? 0),
    );
  }
}
