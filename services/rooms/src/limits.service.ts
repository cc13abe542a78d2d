import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import {
  AUTH,
  LIMITS_MESSAGES,
  LimitsAnswer,
  LimitsFieldsDto,
  mergeLimits,
  NO_LIMITS,
  PrivateLimits,
  ROOM_MESSAGES,
} from '@forkvote/contracts';
import { callService, fail, SERVICE_CLIENT } from '@forkvote/platform';
import { setTimeout as sleep } from 'node:timers/promises';
import { EntityManager, IsNull } from 'typeorm';

const SAVED_LIMITS_WAIT_MS = 1000;
import { Member } from './entities/member.entity';
import { RoomStore } from './room.store';
import { isAccount } from './outbox/command-log';

/**
 * Private limits (docs/groups.md). Each member's own are kept on their membership and answered only to
 * them; an account's are also saved with its profile (auth owns preferences), and an account that set none
 * in a room brings its saved ones. Only the start reads everyone's, and it tells the room a count.
 */
@Injectable()
export class LimitsService {
  private readonly logger = new Logger(LimitsService.name);
  private readonly profileSaves = new Map<string, Promise<void>>();

  constructor(
    private readonly store: RoomStore,
    @Inject(SERVICE_CLIENT) private readonly services: ClientProxy,
  ) {}

  async get(roomId: string, userId: string): Promise<LimitsAnswer> {
    const member = await this.memberOf(this.store.manager, roomId, userId);
    if (member.limits) return { limits: member.limits, fromProfile: false };
    const saved = await this.saved([userId]).catch(() => ({}) as Record<string, PrivateLimits>);
    return saved[userId]
      ? { limits: saved[userId], fromProfile: true }
      : { limits: NO_LIMITS, fromProfile: false };
  }

  /** Before voting starts only: the start is the one reader, so a later change would mean nothing. */
  async set(roomId: string, userId: string, change: LimitsFieldsDto): Promise<LimitsAnswer> {
    const current = await this.get(roomId, userId);
    const limits = await this.store.transaction(async (manager) => {
      const room = await this.store.lockRoom(manager, roomId);
      if (room.state !== 'waiting') fail(409, LIMITS_MESSAGES.notWaiting);
      const member = await this.memberOf(manager, roomId, userId);
      const next = mergeLimits(member.limits ?? current.limits, change);
      await manager.getRepository(Member).update({ id: member.id }, { limits: next });
      return next;
    });
    if (isAccount(userId)) this.saveToProfile(userId, limits);
    return { limits, fromProfile: false };
  }

  /**
   * Saved with the profile's preferences for the next room, in the background: the room's copy already
   * holds, and an auth that is down or slow must not hold the member's answer. One account's saves go one
   * after another from this process, so two quick changes do not reach auth in the wrong order.
   */
  private saveToProfile(userId: string, limits: PrivateLimits): void {
    const previous = this.profileSaves.get(userId) ?? Promise.resolve();
    const save = previous
      .then(() => callService(this.services, AUTH.updateMe, { userId, body: { limits } }))
      .then(
        () => undefined,
        (err: Error) => this.logger.warn(`Private limits not saved to the profile: ${err.message}`),
      );
    this.profileSaves.set(userId, save);
    void save.then(() => {
      if (this.profileSaves.get(userId) === save) this.profileSaves.delete(userId);
    });
  }

  /**
   * The saved limits of the room's present accounts, asked before the start's transaction (no lock is held
   * while auth answers). Without auth, a room starts with the limits set in it.
   */
  async savedOfRoom(roomId: string): Promise<Record<string, PrivateLimits>> {
    const members = await this.store.manager
      .getRepository(Member)
      .find({ where: { roomId, leftAt: IsNull() }, select: { userId: true } });
    return this.saved(members.map((m) => m.userId).filter(isAccount)).catch((err: Error) => {
      this.logger.warn(`Saved private limits unavailable: ${err.message}`);
      return {};
    });
  }

  /** Every present member's limits, read in the start's transaction (after the room's lock). */
  async everyone(
    manager: EntityManager,
    roomId: string,
    saved: Record<string, PrivateLimits>,
  ): Promise<PrivateLimits[]> {
    const members = await manager.getRepository(Member).find({
      where: { roomId, leftAt: IsNull() },
      select: { userId: true, limits: true },
    });
    return members.map((m) => m.limits ?? saved[m.userId] ?? NO_LIMITS);
  }

  /**
   * Saved limits are a convenience: an auth that does not answer within SAVED_LIMITS_WAIT_MS is taken as
   * none saved, so its outage never holds a start (the caller's own RPC deadline is longer).
   */
  private async saved(userIds: string[]): Promise<Record<string, PrivateLimits>> {
    const accounts = userIds.filter(isAccount);
    if (accounts.length === 0) return {};
    const answer = callService(this.services, AUTH.savedLimits, { userIds: accounts });
    answer.catch(() => undefined); // a late failure, after the race is decided, is nobody's to handle
    const late = sleep(SAVED_LIMITS_WAIT_MS, null, { ref: false });
    const saved = await Promise.race([answer, late]);
    if (saved === null) throw new Error(`auth did not answer within ${SAVED_LIMITS_WAIT_MS} ms`);
    return saved.limits;
  }

  private async memberOf(manager: EntityManager, roomId: string, userId: string): Promise<Member> {
    const member = await manager.getRepository(Member).findOne({
      where: { roomId, userId, leftAt: IsNull() },
      select: { id: true, userId: true, limits: true },
    });
    if (!member) fail(403, ROOM_MESSAGES.notMember);
    return member;
  }
}
