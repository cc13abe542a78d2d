import {
  BeforeApplicationShutdown,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { ROOM_EVENTS, ROOM_MESSAGES, RoomEventMap } from '@forkvote/contracts';
import { createRedis, REDIS, redisTargetOf } from '@forkvote/platform';
import {
  sseConnections,
  sseDisconnects,
  sseFanoutLatency,
  sseRoomEventsReceived,
  sseRoomSubscriptions,
} from '../common/gateway-metrics';
import {
  applyMembershipChange,
  listedMember,
  listedMembers,
  membershipChange,
  parseRoomEvent,
  PublishedRoomEvent,
  roomEventKeys,
  roomEventsAfter,
} from '@forkvote/room-events';
import type { Response } from 'express';
import type Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { ShutdownState } from '../health/shutdown-state';

export const HEARTBEAT_MS = 15_000;
/**
 * Streams one member may hold open on one gateway: a few tabs and devices; more are refused (429), so one
 * cookie cannot hold a gateway's sockets and memory.
 */
export const MAX_STREAMS_PER_MEMBER = 5;
/**
 * Each room beats in one of this many slices of the interval, so a gateway writes its heartbeats a thirtieth
 * at a time, every half second. All at once, 10,000 quiet streams held every request and event that arrived
 * meanwhile for 150–190 ms, every 15 s.
 */
export const HEARTBEAT_SLICES = 30;
/** How long a browser waits before reconnecting a dropped stream. */
const RETRY = 'retry: 1000\n\n';
/**
 * No TCP keep-alive of its own: the heartbeat finds a dead peer long before the kernel's two hours, and
 * Node's HTTP server already turns Nagle off on every socket.
 */
const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** How long a room's copy of its member set is trusted before it is read again (see `RoomClients`). */
export const MEMBERS_TRUSTED_MS = 60_000;

/** The clients of one room on this process, and its channel's subscription (resolved once it is active). */
interface RoomClients {
  clients: Set<SseClient>;
  subscribed: Promise<void>;
  /** The subscription failed (Redis gave up): the room's next stream asks for it again. */
  failed: boolean;
  /** The subscription is active: every event published from here on arrives. */
  active: boolean;
  /**
   * The room's member set as this process knows it: read from Redis once the subscription is active, then
   * kept from the USER_JOINED and USER_LEFT events that arrive on it, so a room's later streams are admitted
   * without a round trip. Null while it is being read, after a failed read, and for good once the
   * subscriber's connection has dropped (events may have been missed); read again after
   * MEMBERS_TRUSTED_MS, which bounds what a change missed any other way could leave wrong.
   */
  members: Set<string> | null;
  /** Membership changes that arrived while the set was being read: applied on top of what was read. */
  pending: string[] | null;
  /** Settles (never rejects) when the current read of the member set is over. */
  membersRead: Promise<void>;
  readAt: number;
  /** The subscriber's connection dropped while this room was subscribed: its events may have gaps. */
  gapped: boolean;
  /** When the room's last live event was written to its streams (ms); 0 before any. */
  eventAt: number;
  /** Which slice of the heartbeat interval the room's streams beat in. */
  beatSlice: number;
}

interface SseClient {
  res: Response;
  roomId: string;
  userId: string;
  /** Live events that arrive while the client's missed events are being replayed. */
  buffered: PublishedRoomEvent[] | null;
  lastId: string | null;
}

/** Stream ids are `<ms>-<seq>`; compares them as numbers. */
export function compareEventIds(a: string, b: string): number {
  const ad = a.indexOf('-');
  const bd = b.indexOf('-');
  return Number(a.slice(0, ad)) - Number(b.slice(0, bd)) || Number(a.slice(ad + 1)) - Number(b.slice(bd + 1));
}

const frame = (event: PublishedRoomEvent) =>
  `id: ${event.id}\nevent: ${event.event}\ndata: ${event.data}\n\n`;

/**
 * Relays room events to browsers over Server-Sent Events. The process subscribes to a room's channel while
 * it has clients in that room, and drops it when the last one leaves, so each gateway receives only its own
 * rooms' events (all on one connection; on Redis Cluster, one per shard). Each event's frame is built once
 * and written to every client of its room. One timer sends heartbeat comments to the streams of quiet rooms,
 * a slice of the rooms at a time.
 */
@Injectable()
export class RoomEventsHub implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(RoomEventsHub.name);
  private readonly rooms = new Map<string, RoomClients>();
  private subscriber?: Redis;
  private heartbeat?: NodeJS.Timeout;
  /** The rooms of each heartbeat slice; rooms are dealt to the slices in turn as they are made. */
  private readonly beatSlices = Array.from({ length: HEARTBEAT_SLICES }, () => new Set<RoomClients>());
  private nextBeatSlice = 0;
  private roomsMade = 0;
  private clientCount = 0;
  /** Open streams per `roomId:userId`. */
  private readonly streamsOfMember = new Map<string, number>();

  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly shutdown: ShutdownState,
  ) {}

  get connections(): number {
    return this.clientCount;
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = createRedis(redisTargetOf(this.config), { connectionName: 'gateway:room-events' });
    this.subscriber.on('error', (err) => this.logger.warn(`Redis (room events): ${err.message}`));
    // Events published while the connection is down never arrive: no room subscribed now may trust its copy
    // of the member set again (a room subscribed afresh reads it anew).
    this.subscriber.on('close', () => this.distrustMembers());
    this.subscriber.on('smessage', (_channel: string, message: string) => this.deliver(message));
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS / HEARTBEAT_SLICES);
    this.heartbeat.unref();
  }

  /**
   * Starts a member's stream, once the user is found to be a present member of the room (answers false,
   * having written nothing, when not): headers, replay of what they missed since `lastEventId`, the
   * SUBSCRIBED_TO_SSE event, then live events. Live events arriving during the replay are held and sent
   * after it, without duplicates. Everything up to SUBSCRIBED_TO_SSE leaves in one write (one system
   * call with the headers), which is most of what a connect costs past the HTTP layer.
   *
   * Membership: the room's member set, as this process keeps it for a room it streams, answers without a
   * round trip; else the set in Redis; only when neither lists the user is rooms asked (`askRooms`), which
   * covers a set not there yet (the join's event is a moment away) or lost with Redis.
   */
  async attach(
    res: Response,
    member: { roomId: string; code: string; userId: string; userName: string },
    lastEventId: string | undefined,
    askRooms: () => Promise<boolean>,
  ): Promise<boolean> {
    if ((this.streamsOfMember.get(`${member.roomId}:${member.userId}`) ?? 0) >= MAX_STREAMS_PER_MEMBER) {
      throw new HttpException(ROOM_MESSAGES.tooManyStreams, HttpStatus.TOO_MANY_REQUESTS);
    }
    const client: SseClient = {
      res,
      roomId: member.roomId,
      userId: member.userId,
      buffered: [],
      lastId: null,
    };
    const room = this.join(member.roomId, client);
    // Holds the client only (not the member's claims) for as long as the stream is open.
    res.on('close', () => this.detach(client));

    // Live events are held from here; the replay below covers what came before the subscription.
    const failed = await room.subscribed.then(
      () => null,
      (err: unknown) => err as Error,
    );
    const admitted = await this.admits(room, member.roomId, member.userId, askRooms).catch((err: unknown) => {
      this.detach(client, false);
      throw err;
    });
    if (!admitted) {
      this.detach(client, false);
      return false;
    }
    // A shutdown that came meanwhile has already answered it (with a `retry:`).
    if (res.headersSent) return true;
    res.writeHead(200, STREAM_HEADERS);
    let opening = RETRY;
    if (failed) {
      // No live events could reach this stream: end it, and the browser comes back after `retry` (with
      // its last event id), when the room's subscription is asked for again.
      this.logger.warn(`Subscribing to room ${member.roomId} failed: ${failed.message}`);
      res.end(opening);
      return true;
    }
    // The newest event the client has: the one it names, then each one the opening sends.
    let seen: string | null = null;
    if (lastEventId && /^\d+-\d+$/.test(lastEventId)) {
      seen = lastEventId;
      const missed = await roomEventsAfter(
        this.redis,
        this.config.REDIS_PREFIX,
        member.roomId,
        lastEventId,
      ).catch(() => []);
      for (const event of missed) opening += frame(event);
      seen = missed.at(-1)?.id ?? seen;
    }
    const subscribed: RoomEventMap['SUBSCRIBED_TO_SSE'] & { sentAt: number } = {
      waitingRoomId: member.code,
      userId: member.userId,
      userName: member.userName,
      sentAt: Date.now(),
    };
    opening += `event: ${ROOM_EVENTS.subscribed}\ndata: ${JSON.stringify(subscribed)}\n\n`;
    for (const event of client.buffered ?? []) {
      if (seen && compareEventIds(event.id, seen) <= 0) continue;
      opening += frame(event);
      seen = event.id;
    }
    client.buffered = null;
    // Live events from here are those after the last one sent. Not the client's own id when nothing was
    // sent: an id the room's log never held (or a clock behind it after a failover) must not mute it.
    client.lastId = seen === lastEventId ? null : seen;
    // A shutdown during the replay has ended it already (a write after the end would be an error).
    if (res.writableEnded) return true;
    res.write(opening);
    return true;
  }

  private async admits(
    room: RoomClients,
    roomId: string,
    userId: string,
    askRooms: () => Promise<boolean>,
  ): Promise<boolean> {
    if (room.active && !room.gapped && !room.pending && Date.now() - room.readAt > MEMBERS_TRUSTED_MS) {
      this.readMembers(roomId, room);
    }
    await room.membersRead;
    if (room.members?.has(userId)) return true;
    const listed = await listedMember(this.redis, this.config.REDIS_PREFIX, roomId, userId).catch(
      () => false,
    );
    return listed || askRooms();
  }

  /**
   * Reads the room's member set (its subscription is active, so every change from here on also arrives as
   * an event): changes arriving meanwhile are held and applied on top. A change may be in both; each one
   * sets a user's presence outright, so applying it twice changes nothing.
   */
  private readMembers(roomId: string, room: RoomClients): void {
    room.members = null;
    room.pending = [];
    room.membersRead = listedMembers(this.redis, this.config.REDIS_PREFIX, roomId).then(
      (listed) => {
        if (!room.pending) return; // the connection dropped meanwhile: not to be trusted
        const members = new Set(listed);
        for (const change of room.pending) applyMembershipChange(members, change);
        room.members = members;
        room.pending = null;
        room.readAt = Date.now();
      },
      () => {
        room.pending = null;
      },
    );
  }

  /** Adds a client to its room here, subscribing to the room's channel if it is the room's first. */
  private join(roomId: string, client: SseClient): RoomClients {
    let room = this.rooms.get(roomId);
    if (!room) {
      room = {
        clients: new Set(),
        subscribed: Promise.resolve(),
        failed: false,
        active: false,
        members: null,
        pending: null,
        membersRead: Promise.resolve(),
        readAt: 0,
        gapped: false,
        eventAt: 0,
        beatSlice: this.roomsMade++ % HEARTBEAT_SLICES,
      };
      this.rooms.set(roomId, room);
      this.beatSlices[room.beatSlice].add(room);
      sseRoomSubscriptions.inc();
      this.subscribe(roomId, room);
    } else if (room.failed) {
      this.subscribe(roomId, room);
    }
    room.clients.add(client);
    const memberKey = `${roomId}:${client.userId}`;
    this.streamsOfMember.set(memberKey, (this.streamsOfMember.get(memberKey) ?? 0) + 1);
    this.clientCount += 1;
    sseConnections.inc();
    return room;
  }

  private subscribe(roomId: string, room: RoomClients): void {
    room.failed = false;
    room.subscribed = this.subscriber!.ssubscribe(
      roomEventKeys.channel(this.config.REDIS_PREFIX, roomId),
    ).then(
      () => {
        room.active = true;
        if (!room.gapped) this.readMembers(roomId, room);
      },
      (err: unknown) => {
        room.failed = true;
        throw err;
      },
    );
  }

  private deliver(message: string): void {
    const event = parseRoomEvent(message);
    if (!event) return;
    sseRoomEventsReceived.inc();
    const room = this.rooms.get(event.roomId);
    if (!room) return;
    const change = this.membershipChangeOf(event);
    if (change && (room.members || room.pending)) {
      if (room.members) applyMembershipChange(room.members, change);
      else room.pending?.push(change);
    }
    const text = frame(event);
    for (const client of room.clients) {
      if (client.buffered) client.buffered.push(event);
      // An event may reach a stream's replay (read from the room's log) before its live copy reaches this
      // process: a stream gets each event once.
      else if (client.lastId === null || compareEventIds(event.id, client.lastId) > 0) {
        client.lastId = event.id;
        client.res.write(text);
      }
    }
    room.eventAt = Date.now();
    // A member who left hears that they left, and their streams end; a closed room's streams all end. A
    // stream reopened after that is refused: the member is no longer in the room.
    if (change === 'x' || change.startsWith('-')) {
      for (const client of [...room.clients]) {
        if (change === 'x' || client.userId === change.slice(1)) this.end(client);
      }
    }
    // The event's id is the time (ms) it entered the room's log: from there to written to every client.
    const published = Number(event.id.split('-')[0]);
    if (published > 0) sseFanoutLatency.observe(Math.max(0, room.eventAt - published) / 1000);
  }

  /** The membership change an event makes ('' for none; see `membershipChange`). */
  private membershipChangeOf(event: PublishedRoomEvent): string {
    if (event.event !== ROOM_EVENTS.userJoined && event.event !== ROOM_EVENTS.userLeft) return '';
    try {
      return membershipChange(event.event, JSON.parse(event.data));
    } catch {
      return '';
    }
  }

  /** Ends a stream from this side (its 'close' takes it out of its room). */
  private end(client: SseClient): void {
    if (!client.res.headersSent) client.res.writeHead(200, STREAM_HEADERS);
    if (!client.res.writableEnded) client.res.end();
  }

  /**
   * The next slice's beat: a comment on every open stream of a room that carried no event since its last
   * beat, so no stream is silent for more than two intervals; a busy room's events already keep proxies from
   * closing its streams, and skipping them saves a write per stream (and the browser's read) every interval.
   * A stream still opening gets its headers first, so it is left out.
   */
  private beat(): void {
    const slice = this.beatSlices[this.nextBeatSlice];
    this.nextBeatSlice = (this.nextBeatSlice + 1) % HEARTBEAT_SLICES;
    const quietSince = Date.now() - HEARTBEAT_MS;
    for (const room of slice) {
      if (room.eventAt > quietSince) continue;
      for (const client of room.clients) if (!client.buffered) client.res.write(':\n\n');
    }
  }

  private distrustMembers(): void {
    for (const room of this.rooms.values()) {
      room.gapped = true;
      room.members = room.pending = null;
    }
  }

  /** Takes a client out of its room: a stream that closed, or (`opened` false) one that was refused. */
  private detach(client: SseClient, opened = true): void {
    const { roomId } = client;
    const room = this.rooms.get(roomId);
    if (!room?.clients.delete(client)) return;
    const memberKey = `${roomId}:${client.userId}`;
    const streams = (this.streamsOfMember.get(memberKey) ?? 1) - 1;
    if (streams > 0) this.streamsOfMember.set(memberKey, streams);
    else this.streamsOfMember.delete(memberKey);
    this.clientCount -= 1;
    sseConnections.dec();
    if (opened) sseDisconnects.inc({ reason: this.shutdown.draining ? 'shutdown' : 'client' });
    if (room.clients.size === 0) {
      this.rooms.delete(roomId);
      this.beatSlices[room.beatSlice].delete(room);
      sseRoomSubscriptions.dec();
      // Commands on one connection run in order: a later subscribe to the room lands after this.
      this.subscriber!.sunsubscribe(roomEventKeys.channel(this.config.REDIS_PREFIX, roomId)).catch(
        () => undefined,
      );
    }
  }

  /** Ends every stream; browsers reconnect (to another replica) and resume from their last event id. */
  closeAll(retryMs?: () => number): void {
    for (const room of this.rooms.values()) {
      for (const client of room.clients) {
        // A stream still opening gets its headers here, so the browser sees a stream that ended.
        if (!client.res.headersSent) client.res.writeHead(200, STREAM_HEADERS);
        if (retryMs) client.res.write(`retry: ${retryMs()}\n\n`);
        client.res.end();
      }
    }
  }

  /**
   * Before the HTTP server stops (it would wait for these endless responses): end every stream with a
   * jittered `retry:` so browsers reconnect to other replicas spread over a few seconds, not all at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    // Readiness goes false first; endpoint removal runs in parallel with SIGTERM, so keep serving a moment.
    this.shutdown.draining = true;
    if (this.config.SHUTDOWN_DELAY_MS > 0)
      await new Promise((resolve) => setTimeout(resolve, this.config.SHUTDOWN_DELAY_MS));
    clearInterval(this.heartbeat);
    this.closeAll(() => 1000 + Math.floor(Math.random() * 4000));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
