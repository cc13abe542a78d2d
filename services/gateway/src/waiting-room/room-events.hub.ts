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
import {
  contextFrom,
  createRedis,
  REDIS,
  redisTargetOf,
  SpanKind,
  tracer,
  tracingStarted,
} from '@forkvote/platform';
import { listedMember, membershipChange, PublishedRoomEvent, roomEventsAfter } from '@forkvote/room-events';
import type { Response } from 'express';
import type Redis from 'ioredis';
import { sseConnections, sseDisconnects, sseFanoutLatency } from '../common/gateway-metrics';
import { GatewayConfig } from '../gateway.config';
import { ShutdownState } from '../health/shutdown-state';
import { HEARTBEAT_MS, Heartbeats } from './heartbeats';
import { RoomSubscriptions } from './room-subscriptions';
import { frame, isNewTo, openingOf } from './stream-replay';

/**
 * Streams one member may hold open on one gateway: a few tabs and devices; more are refused (429), so one
 * cookie cannot hold a gateway's sockets and memory.
 */
export const MAX_STREAMS_PER_MEMBER = 5;
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

/** The streams of one room on this process. */
interface RoomStreams {
  clients: Set<SseClient>;
  /** When the room's last live event was written to its streams (ms); 0 before any. */
  eventAt: number;
}

interface SseClient {
  res: Response;
  roomId: string;
  userId: string;
  /** Live events that arrive while the client's missed events are being replayed. */
  buffered: PublishedRoomEvent[] | null;
  /** The newest event the stream has had (live events at or before it are not sent again). */
  lastId: string | null;
}

/**
 * Relays room events to browsers over Server-Sent Events: each member's streams, opened once the room's
 * member set lists them, then fed from the room's subscription (`RoomSubscriptions`), resumed after a drop
 * from the room's log (`openingOf`), and kept alive by heartbeats in slices (`Heartbeats`). Each event's
 * frame is built once and written to every stream of its room.
 */
@Injectable()
export class RoomEventsHub implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger(RoomEventsHub.name);
  private readonly rooms = new Map<string, RoomStreams>();
  private readonly subscriptions: RoomSubscriptions;
  private readonly heartbeats = new Heartbeats<RoomStreams>((rooms) => this.beat(rooms));
  private clientCount = 0;
  /** Open streams per `roomId:userId`. */
  private readonly streamsOfMember = new Map<string, number>();

  constructor(
    private readonly config: GatewayConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly shutdown: ShutdownState,
  ) {
    this.subscriptions = new RoomSubscriptions(config.REDIS_PREFIX, (event) => this.deliver(event));
  }

  get connections(): number {
    return this.clientCount;
  }

  onModuleInit(): void {
    this.subscriptions.listen(
      createRedis(redisTargetOf(this.config), { connectionName: 'gateway:room-events' }),
    );
    this.heartbeats.start();
  }

  /**
   * Starts a member's stream, once the room's member set lists the user (answers false, having written
   * nothing, when it does not): headers, replay of what they missed since `lastEventId`, the
   * SUBSCRIBED_TO_SSE event, then live events. Live events arriving during the replay are held and sent
   * after it, without duplicates. Everything up to SUBSCRIBED_TO_SSE leaves in one write (one system call
   * with the headers), which is most of what a connect costs past the HTTP layer.
   *
   * Membership has one source, the member set rooms keeps in Redis; rooms itself is asked (`askRooms`) only
   * when the set does not list the user, which covers a set not there yet (the join's event is a moment
   * away) or lost with Redis.
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
    this.join(client);
    // Holds the client only (not the member's claims) for as long as the stream is open.
    res.on('close', () => this.detach(client));

    // Live events are held from here; the replay below covers what came before the subscription.
    const failed = await this.subscriptions.subscribe(member.roomId).then(
      () => null,
      (err: unknown) => err as Error,
    );
    const admitted = await this.admits(member.roomId, member.userId, askRooms).catch((err: unknown) => {
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
    if (failed) {
      // No live events could reach this stream: end it, and the browser comes back after `retry` (with
      // its last event id), when the room's subscription is asked for again.
      this.logger.warn(`Subscribing to room ${member.roomId} failed: ${failed.message}`);
      res.end(RETRY);
      return true;
    }
    const resumeAfter = lastEventId && /^\d+-\d+$/.test(lastEventId) ? lastEventId : undefined;
    const missed = resumeAfter
      ? await roomEventsAfter(this.redis, this.config.REDIS_PREFIX, member.roomId, resumeAfter).catch(
          () => [],
        )
      : [];
    const subscribed: RoomEventMap['SUBSCRIBED_TO_SSE'] & { sentAt: number } = {
      waitingRoomId: member.code,
      userId: member.userId,
      userName: member.userName,
      sentAt: Date.now(),
    };
    const opening = openingOf(
      resumeAfter,
      missed,
      `event: ${ROOM_EVENTS.subscribed}\ndata: ${JSON.stringify(subscribed)}\n\n`,
      client.buffered ?? [],
    );
    client.buffered = null;
    client.lastId = opening.lastId;
    // A shutdown during the replay has ended it already (a write after the end would be an error).
    if (res.writableEnded) return true;
    res.write(RETRY + opening.text);
    return true;
  }

  private async admits(roomId: string, userId: string, askRooms: () => Promise<boolean>): Promise<boolean> {
    const listed = await listedMember(this.redis, this.config.REDIS_PREFIX, roomId, userId).catch(
      () => false,
    );
    return listed || askRooms();
  }

  /** Adds a client to its room's streams here (the room's first also puts the room in a heartbeat slice). */
  private join(client: SseClient): void {
    let room = this.rooms.get(client.roomId);
    if (!room) {
      room = { clients: new Set(), eventAt: 0 };
      this.rooms.set(client.roomId, room);
      this.heartbeats.add(room);
    }
    room.clients.add(client);
    const memberKey = `${client.roomId}:${client.userId}`;
    this.streamsOfMember.set(memberKey, (this.streamsOfMember.get(memberKey) ?? 0) + 1);
    this.clientCount += 1;
    sseConnections.inc();
  }

  private deliver(event: PublishedRoomEvent): void {
    const room = this.rooms.get(event.roomId);
    if (!room) return;
    // The fan-out is a span of the trace of the command that wrote the event (via the outbox's publish).
    const span =
      event.traceparent && tracingStarted()
        ? tracer().startSpan(
            'room-event fanout',
            {
              kind: SpanKind.CONSUMER,
              attributes: { 'forkvote.room_event': event.event, 'forkvote.streams': room.clients.size },
            },
            contextFrom({ traceparent: event.traceparent }),
          )
        : undefined;
    const text = frame(event);
    for (const client of room.clients) {
      if (client.buffered) client.buffered.push(event);
      // An event may reach a stream's replay (read from the room's log) before its live copy reaches this
      // process: a stream gets each event once.
      else if (isNewTo(client.lastId, event)) {
        client.lastId = event.id;
        client.res.write(text);
      }
    }
    room.eventAt = Date.now();
    // A member who left hears that they left, and their streams end; a closed room's streams all end. A
    // stream reopened after that is refused: the member is no longer in the room.
    const change = this.membershipChangeOf(event);
    if (change === 'x' || change.startsWith('-')) {
      for (const client of [...room.clients]) {
        if (change === 'x' || client.userId === change.slice(1)) this.end(client);
      }
    }
    // The event's id is the time (ms) it entered the room's log: from there to written to every client.
    const published = Number(event.id.split('-')[0]);
    if (published > 0) sseFanoutLatency.observe(Math.max(0, room.eventAt - published) / 1000);
    span?.end();
  }

  /** The membership change an event makes ('' for none; see `membershipChange`). */
  private membershipChangeOf(event: PublishedRoomEvent): string {
    if (event.event !== ROOM_EVENTS.userLeft) return '';
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
   * A slice's beat: a comment on every open stream of a room that carried no event since its last beat, so
   * no stream is silent for more than two intervals; a busy room's events already keep proxies from closing
   * its streams, and skipping them saves a write per stream (and the browser's read) every interval. A
   * stream still opening gets its headers first, so it is left out.
   */
  private beat(rooms: Iterable<RoomStreams>): void {
    const quietSince = Date.now() - HEARTBEAT_MS;
    for (const room of rooms) {
      if (room.eventAt > quietSince) continue;
      for (const client of room.clients) if (!client.buffered) client.res.write(':\n\n');
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
      this.heartbeats.remove(room);
      this.subscriptions.unsubscribe(roomId);
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
    this.heartbeats.stop();
    this.closeAll(() => 1000 + Math.floor(Math.random() * 4000));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriptions.close();
  }
}
