import { Injectable } from '@nestjs/common';
import {
  CreateRoomAnswer,
  DecisionRule,
  GROUP_MESSAGES,
  GroupSearch,
  GroupsAnswer,
  InvitationsAnswer,
  ROOM_EVENTS,
  ROOM_MESSAGES,
  SavedGroup,
} from '@forkvote/contracts';
import { fail } from '@forkvote/platform';
import { EntityManager } from 'typeorm';
import { MembershipService } from './membership.service';
import { RoomEventsOutbox } from './outbox/room-events.outbox';
import { RoomStore } from './room.store';
import { isAccount } from './outbox/command-log';

interface GroupRow {
  id: string;
  owner_id: string;
  owner_name: string;
  name: string;
  decision_rule: DecisionRule;
  search: GroupSearch | null;
  created_at: Date;
  last_started_at: Date | null;
  members: { memberId: number; userId: string | null; userName: string }[];
}

const GROUP_SELECT = `
  SELECT g.id, g.owner_id, g.owner_name, g.name, g.decision_rule, g.search, g.created_at,
         (SELECT max(r.created_at) FROM "rooms"."rooms" r WHERE r.group_id = g.id) AS last_started_at,
         (SELECT jsonb_agg(jsonb_build_object('memberId', m.member_id, 'userId', m.user_id, 'userName', m.user_name)
                           ORDER BY m.member_id)
            FROM "rooms"."group_members" m WHERE m.group_id = g.id) AS members
    FROM "rooms"."groups" g`;

/**
 * Saved groups (docs/groups.md): the people of a session kept under a name by its host, who starts a room
 * with them again; its registered members are invited (a card on their home page, and Web Push where they
 * allowed it), and can leave; the owner can remove them. Only accounts see groups: a guest is a name.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly store: RoomStore,
    private readonly membership: MembershipService,
    private readonly outbox: RoomEventsOutbox,
  ) {}

  async list(userId: string): Promise<GroupsAnswer> {
    const rows = (await this.store.manager.query(
      `${GROUP_SELECT}
        WHERE g.owner_id = $1
           OR EXISTS (SELECT 1 FROM "rooms"."group_members" m WHERE m.group_id = g.id AND m.user_id = $1)
        ORDER BY g.created_at DESC, g.id
        LIMIT 100`,
      [userId],
    )) as GroupRow[];
    return { groups: rows.map((row) => toGroup(row, userId)) };
  }

  /** The host's latest room with this code: its members (in the order they joined) become the group. */
  async save(userId: string, code: string, name: string): Promise<SavedGroup> {
    const groupId = await this.store.transaction(async (manager) => {
      const [room] = (await manager.query(
        `SELECT id, created_by_user_id, decision_rule, search FROM "rooms"."rooms"
          WHERE code = $1 ORDER BY created_at DESC LIMIT 1`,
        [code],
      )) as {
        id: string;
        created_by_user_id: string;
        decision_rule: DecisionRule;
        search: GroupSearch | null;
      }[];
      if (!room) fail(404, ROOM_MESSAGES.roomNotFound);
      if (room.created_by_user_id !== userId) fail(403, GROUP_MESSAGES.hostOnly);
      const people = (await manager.query(
        `SELECT DISTINCT ON (user_id) user_id, user_name, joined_at FROM "rooms"."members"
          WHERE room_id = $1 ORDER BY user_id, joined_at`,
        [room.id],
      )) as { user_id: string; user_name: string; joined_at: Date }[];
      people.sort((a, b) =>
        a.user_id === userId ? -1 : b.user_id === userId ? 1 : a.joined_at.getTime() - b.joined_at.getTime(),
      );
      const ownerName = people.find((p) => p.user_id === userId)?.user_name ?? '';
      const [group] = (await manager.query(
        `INSERT INTO "rooms"."groups" (owner_id, owner_name, name, decision_rule, search)
         VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [userId, ownerName, name, room.decision_rule, room.search && groupSearch(room.search)],
      )) as { id: string }[];
      await manager.query(
        `INSERT INTO "rooms"."group_members" (group_id, member_id, user_id, user_name)
         SELECT $1, n - 1, u, name FROM unnest($2::varchar[], $3::varchar[]) WITH ORDINALITY AS p(u, name, n)`,
        [
          group.id,
          people.map((p) => (isAccount(p.user_id) ? p.user_id : null)),
          people.map((p) => p.user_name),
        ],
      );
      // The session it was saved from is the group's first: its picks count as the group's.
      await manager.query(`UPDATE "rooms"."rooms" SET group_id = $2 WHERE id = $1 AND group_id IS NULL`, [
        room.id,
        group.id,
      ]);
      return group.id;
    });
    return this.group(this.store.manager, groupId, userId);
  }

  async remove(userId: string, groupId: string, memberId: number): Promise<SavedGroup | { left: true }> {
    return this.store.transaction(async (manager) => {
      const group = await this.group(manager, groupId, userId, true);
      const member = group.members.find((m) => m.memberId === memberId);
      if (!member) fail(404, GROUP_MESSAGES.memberNotFound);
      if (member.isOwner) fail(409, GROUP_MESSAGES.ownerStays);
      if (!group.isOwner && !member.isMe) fail(403, GROUP_MESSAGES.ownerOnly);
      // Their open invitations to the group's rooms go with them.
      await manager.query(
        `WITH gone AS (DELETE FROM "rooms"."group_members" WHERE group_id = $1 AND member_id = $2 RETURNING user_id)
         DELETE FROM "rooms"."invitations" i USING gone WHERE i.group_id = $1 AND i.user_id = gone.user_id`,
        [groupId, memberId],
      );
      if (member.isMe) return { left: true as const };
      return this.group(manager, groupId, userId);
    });
  }

  async delete(userId: string, groupId: string): Promise<{ deleted: true }> {
    const group = await this.group(this.store.manager, groupId, userId);
    if (!group.isOwner) fail(403, GROUP_MESSAGES.ownerOnly);
    await this.store.manager.query(`DELETE FROM "rooms"."groups" WHERE id = $1`, [groupId]);
    return { deleted: true };
  }

  /**
   * A room for the group (as any room: the owner's plan must allow hosting), with its rule, and an
   * invitation to each registered member. A retry with the same key finds the same room and invites no one
   * twice (the invitations' key is the room and the person).
   */
  async start(
    userId: string,
    groupId: string,
    key: string,
  ): Promise<CreateRoomAnswer & { memberToken: string }> {
    const group = await this.group(this.store.manager, groupId, userId);
    if (!group.isOwner) fail(403, GROUP_MESSAGES.ownerOnly);
    const created = await this.membership.create({ userId }, group.ownerName, key);
    await this.store.transaction(async (manager) => {
      const [found] = (await manager.query(
        `SELECT id FROM "rooms"."rooms" WHERE code = $1 AND created_by_user_id = $2 AND state <> 'closed'`,
        [created.waitingRoom.waitingRoomId, userId],
      )) as { id: string }[];
      if (!found) fail(410, ROOM_MESSAGES.roomClosed);
      const room = await this.store.lockRoom(manager, found.id);
      await manager.query(
        `UPDATE "rooms"."rooms" SET group_id = $2,
                decision_rule = CASE WHEN state = 'waiting' AND group_id IS NULL THEN $3 ELSE decision_rule END
          WHERE id = $1`,
        [room.id, groupId, group.decisionRule],
      );
      const invited = (await manager.query(
        `INSERT INTO "rooms"."invitations" (room_id, user_id, group_id)
         SELECT $1, m.user_id, $2 FROM "rooms"."group_members" m
          WHERE m.group_id = $2 AND m.user_id IS NOT NULL AND m.user_id <> $3
         ON CONFLICT DO NOTHING RETURNING user_id`,
        [room.id, groupId, userId],
      )) as unknown[];
      if (invited.length > 0)
        await this.outbox.write(manager, [
          {
            roomId: room.id,
            event: ROOM_EVENTS.groupInvited,
            data: { groupName: group.name, hostName: group.ownerName, invitedCount: invited.length },
          },
        ]);
    });
    this.outbox.wake();
    return { ...created, waitingRoom: { ...created.waitingRoom, decisionRule: group.decisionRule } };
  }

  async invitations(userId: string): Promise<InvitationsAnswer> {
    const rows = (await this.store.manager.query(
      `SELECT r.code, g.id AS group_id, g.name, g.owner_name, i.created_at
         FROM "rooms"."invitations" i
         JOIN "rooms"."rooms" r ON r.id = i.room_id AND r.state <> 'closed'
         JOIN "rooms"."groups" g ON g.id = i.group_id
        WHERE i.user_id = $1 AND i.dismissed_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM "rooms"."members" m
                           WHERE m.room_id = i.room_id AND m.user_id = i.user_id AND m.left_at IS NULL)
        ORDER BY i.created_at DESC
        LIMIT 10`,
      [userId],
    )) as { code: string; group_id: string; name: string; owner_name: string; created_at: Date }[];
    return {
      invitations: rows.map((r) => ({
        waitingRoomId: r.code,
        groupId: r.group_id,
        groupName: r.name,
        hostName: r.owner_name,
        invitedAt: r.created_at.toISOString(),
      })),
    };
  }

  async dismiss(userId: string, code: string): Promise<{ dismissed: true }> {
    // In a WITH: TypeORM answers a bare UPDATE as [rows, count].
    const rows = (await this.store.manager.query(
      `WITH dismissed AS (
         UPDATE "rooms"."invitations" i SET dismissed_at = now()
           FROM "rooms"."rooms" r
          WHERE r.id = i.room_id AND r.code = $2 AND i.user_id = $1 AND i.dismissed_at IS NULL
          RETURNING 1)
       SELECT 1 FROM dismissed`,
      [userId, code],
    )) as unknown[];
    if (rows.length === 0) fail(404, GROUP_MESSAGES.invitationGone);
    return { dismissed: true };
  }

  /** A group the user saved or belongs to; anyone else is told it does not exist. */
  private async group(
    manager: EntityManager,
    groupId: string,
    userId: string,
    lock = false,
  ): Promise<SavedGroup> {
    const [row] = (await manager.query(`${GROUP_SELECT} WHERE g.id = $1${lock ? ' FOR UPDATE OF g' : ''}`, [
      groupId,
    ])) as GroupRow[];
    const group = row && toGroup(row, userId);
    if (!group || (!group.isOwner && !group.members.some((m) => m.isMe))) fail(404, GROUP_MESSAGES.notFound);
    return group;
  }
}

/** The part of a room's start a group keeps (not how many places, nor a page of them). */
const GROUP_SEARCH_FIELDS = [
  'latitude',
  'longitude',
  'radiusInMeters',
  'includedTypes',
  'excludedTypes',
  'rankPreference',
  'openNow',
  'priceLevels',
] as const satisfies readonly (keyof GroupSearch)[];

const groupSearch = (search: GroupSearch): GroupSearch =>
  Object.fromEntries(GROUP_SEARCH_FIELDS.map((field) => [field, search[field]])) as unknown as GroupSearch;

function toGroup(row: GroupRow, userId: string): SavedGroup {
  return {
    groupId: row.id,
    name: row.name,
    ownerName: row.owner_name,
    isOwner: row.owner_id === userId,
    decisionRule: row.decision_rule,
    search: row.search,
    members: (row.members ?? []).map((m) => ({
      memberId: m.memberId,
      userName: m.userName,
      registered: m.userId !== null,
      isOwner: m.userId === row.owner_id,
      isMe: m.userId === userId,
    })),
    createdAt: row.created_at.toISOString(),
    lastStartedAt: row.last_started_at ? row.last_started_at.toISOString() : null,
  };
}
