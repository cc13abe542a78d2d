import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  BallotsInput,
  BallotsResult,
  ballotsResultOf,
  ROOM_EVENTS,
  RoomEventName,
  RoomEventOf,
} from '@forkvote/contracts';
import {
  activeTraceparent,
  CheckedOutConnection,
  checkOutConnection,
  context,
  contextFrom,
  endSpan,
  PlatformConfig,
  REDIS,
  registerQueryGauge,
  SpanKind,
  trace,
  traceHeaders,
  tracer,
  tracingStarted,
} from '@forkvote/platform';
import { publishRoomEvents } from '@forkvote/room-events';
import Redis from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { PushService } from '../push/push.service';

/**
 * A room event for the outbox: the room, and an event name with the payload RoomEventMap gives it; except
 * that BALLOTS_SUBMITTED holds what its results are computed from (the batch's places and votes), captured
 * by the transaction that closed the batch, and the relay computes the event's payload from it as it
 * publishes (`toPublished`). That lets the vote statement write the event itself, in SQL, in its one round
 * trip, while the rule that computes results stays in one place (computeBallots in libs/contracts).
 */
export type RoomEvent = (
  | RoomEventOf<Exclude<RoomEventName, typeof ROOM_EVENTS.ballotsSubmitted>>
  | { event: typeof ROOM_EVENTS.ballotsSubmitted; data: BallotsInput }
) & {
  roomId: string;
  /** The trace of the command that caused it, where that is not the active one (a batched statement). */
  traceparent?: string | null;
};

/**
 * The payload an outbox row publishes: BALLOTS_SUBMITTED's results, computed from the input the row holds
 * (rows an older release wrote hold the results, and pass as they are).
 */
export function toPublished(event: string, data: object): object {
  return event === ROOM_EVENTS.ballotsSubmitted ? ballotsResultOf(data as BallotsInput) : data;
}

/**
 * The results a round's events settle, one per room and batch (the last wins: a holdout round's end comes
 * after the ballots it changed), as `rooms.batch_results` keeps them.
 */
export function keptResults(rows: { room_id: string; event: string }[], published: object[]) {
  const kept = new Map<string, object>();
  rows.forEach((row, i) => {
    const result =
      row.event === ROOM_EVENTS.ballotsSubmitted
        ? (published[i] as BallotsResult)
        : row.event === ROOM_EVENTS.holdoutRoundEnded
          ? (published[i] as { result: BallotsResult }).result
          : null;
    if (!result) return;
    kept.set(`${row.room_id}:${result.batchIndex}`, {
      room_id: row.room_id,
      batch_index: result.batchIndex,
      voter_count: result.voterCount,
      winners: result.winners,
      places: result.ballots.map((b) => ({
        id: b.placeId,
        name: b.place.displayName.text,
        address: b.place.shortFormattedAddress || b.place.formattedAddress,
        upVotes: b.upVotes,
      })),
    });
  });
  return [...kept.values()];
}

/** Any constant names the relay's lock; one relay at a time keeps each room's events in order. */
const RELAY_LOCK = 0x726f6f6d; // 'room'
const BATCH = 200;
/** The channel the outbox's trigger notifies on each commit that adds events (migration 1763900000005). */
const CHANNEL = 'rooms_outbox';
/**
 * The least time (ms) between the starts of two rounds. A commit after a quiet spell is published at once;
 * under load, the events of the commits of a few milliseconds go in one round (two statements and one
 * Redis round trip) instead of one round each.
 */
const RELAY_MIN_INTERVAL_MS = 5;
const RETRY_MS = 1000;
/** Published events and recorded answers are kept this long, then swept. */
const KEEP_HOURS = 1;

/**
 * The transactional outbox of room events. `write` adds events inside the caller's transaction, so an event
 * exists exactly when the change it reports was committed. The relay publishes them, oldest first, to each
 * room's Redis log and channel, then marks them sent. Every rooms replica runs it; a PostgreSQL advisory
 * lock, held by one replica's relay connection, lets one publish at a time, which keeps each room's order.
 * That connection LISTENs on the outbox's channel, so any replica's commit wakes the relay at once; a
 * replica without the relay tries for it after its own commits, and every replica polls every
 * OUTBOX_POLL_MS for the rest (taking over from a replica that went, a Redis outage). The others try for the lock at each wake, and take it
 * when that connection goes.
 *
 * Guarantee: at least once into Redis (a relay that dies after publishing and before marking publishes
 * again), made exactly once in the room's log by the outbox id each publish carries; so a client resuming
 * with Last-Event-ID receives every event exactly once.
 */
@Injectable()
export class RoomEventsOutbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RoomEventsOutbox.name);
  private timer?: NodeJS.Timeout;
  private draining: Promise<void> | null = null;
  private again = false;
  private running = false;
  private lastSweep = 0;
  /** When the relay's last round started (performance.now()). */
  private lastRound = -Infinity;
  private failingSince = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: PlatformConfig,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly push: PushService,
  ) {}

  /**
   * Adds events to the outbox in the caller's transaction, in the order given, each with the trace context
   * of the command that caused it (its own, or the active one).
   */
  async write(manager: EntityManager, events: RoomEvent[]): Promise<void> {
    if (events.length === 0) return;
    const active = activeTraceparent();
    await manager.query(
      `INSERT INTO "rooms"."outbox" (room_id, event, data, traceparent)
       SELECT e.room_id, e.event, e.data, e.traceparent
         FROM unnest($1::uuid[], $2::varchar[], $3::jsonb[], $4::varchar[])
              WITH ORDINALITY AS e(room_id, event, data, traceparent, n)
        ORDER BY e.n`,
      [
        events.map((e) => e.roomId),
        events.map((e) => e.event),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => e.traceparent ?? active),
      ],
    );
  }

  /**
   * After a commit that wrote events. The replica that holds the relay hears the commit's NOTIFY, so a
   * round started here too would find nothing left; any other replica tries for the relay at once (taking
   * over from one that went) instead of at its next poll.
   */
  wake(): void {
    if (!this.relay) this.round();
  }

  /**
   * A round of the relay: now, or if its last round started less than RELAY_MIN_INTERVAL_MS ago, once that
   * much time has passed since.
   */
  private round(): void {
    if (!this.running) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    const wait = this.lastRound + RELAY_MIN_INTERVAL_MS - performance.now();
    const due = wait > 0 ? new Promise((resolve) => setTimeout(resolve, Math.ceil(wait))) : Promise.resolve();
    this.draining = due
      .then(() => this.drain())
      .finally(() => {
        this.draining = null;
        if (this.again) {
          this.again = false;
          this.round();
        }
      });
  }

  onApplicationBootstrap(): void {
    registerQueryGauge(
      'forkvote_room_outbox_oldest_age_seconds',
      'Age of the oldest room event committed and not yet published to Redis (0 when none waits)',
      async () => {
        const [row] = (await this.dataSource.query(
          `SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS age
             FROM "rooms"."outbox" WHERE published_at IS NULL`,
        )) as { age: number }[];
        return row.age;
      },
    );
    registerQueryGauge(
      'forkvote_room_outbox_backlog',
      'Room events committed and not yet published to Redis',
      async () => {
        const [row] = (await this.dataSource.query(
          `SELECT count(*)::int AS backlog FROM "rooms"."outbox" WHERE published_at IS NULL`,
        )) as { backlog: number }[];
        return row.backlog;
      },
    );
    this.running = true;
    this.timer = setInterval(() => this.round(), this.config.OUTBOX_POLL_MS);
    this.round();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    clearInterval(this.timer);
    await this.draining;
    this.letGoOfRelay(new Error('shutting down'));
  }

  private async drain(): Promise<void> {
    this.lastRound = performance.now();
    try {
      while (this.running && (await this.publishBatch()) === BATCH);
      if (this.failingSince) this.logger.log('Room events are being published again');
      this.failingSince = 0;
      await this.sweep();
    } catch (err) {
      // Redis or PostgreSQL is away: nothing was marked sent, so the next round starts where this one did.
      if (!this.failingSince) {
        this.failingSince = Date.now();
        this.logger.warn(`Publishing room events failed, will retry: ${(err as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  /**
   * The relay's own connection, holding the relay lock: a session lock, taken once and held for as long as
   * the connection lives, so a round costs two statements (read, mark sent) and not a transaction of five.
   * Undefined while this replica does not hold it. Any failure drops the connection, and with it the lock.
   */
  private relay?: CheckedOutConnection;

  /** The relay's connection if this replica holds the lock (taking it if nobody does), else undefined. */
  private async relayConnection(): Promise<CheckedOutConnection | undefined> {
    if (this.relay) return this.relay;
    const connection = await checkOutConnection(this.dataSource, (err) => {
      if (this.relay === connection) this.letGoOfRelay(err);
    });
    try {
      const { rows } = await connection.client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS locked',
        [RELAY_LOCK],
      );
      if (!rows[0].locked) {
        connection.release();
        return undefined;
      }
      // Any replica's commit that adds events notifies this channel; the relay publishes on hearing it.
      await connection.client.query(`LISTEN ${CHANNEL}`);
      connection.client.on('notification', this.onNotification);
      // Published rows leave dead entries in the partial index until a vacuum. Walked in id order, an index
      // scan marks them dead once and stops at LIMIT; the bitmap scan the planner otherwise picks visits
      // every one's heap page on every round, a cost that grows until a vacuum (docs/adr/0040).
      await connection.client.query('SET enable_bitmapscan = off');
    } catch (err) {
      connection.release(err as Error);
      throw err;
    }
    return (this.relay = connection);
  }

  private readonly onNotification = () => this.round();

  /**
   * Gives the relay lock back: its connection goes (and its LISTEN with it), so no pooled connection keeps
   * holding either.
   */
  private letGoOfRelay(err: Error): void {
    this.relay?.client.removeListener('notification', this.onNotification);
    this.relay?.release(err);
    this.relay = undefined;
  }

  /** One batch under the relay lock; answers how many events it published (0: none, or another relay). */
  private async publishBatch(): Promise<number> {
    const relay = await this.relayConnection();
    if (!relay) return 0;
    try {
      const { rows } = await relay.client.query<{
        id: string;
        room_id: string;
        event: string;
        data: object;
        traceparent: string | null;
      }>(
        `SELECT id, room_id, event, data, traceparent FROM "rooms"."outbox"
          WHERE published_at IS NULL ORDER BY id LIMIT ${BATCH}`,
      );
      if (rows.length === 0) return 0;
      // Each event written inside a trace is published as a span of that trace, which it carries on.
      const spans = rows.map((r) =>
        r.traceparent && tracingStarted()
          ? tracer().startSpan(
              'room-event publish',
              { kind: SpanKind.PRODUCER, attributes: { 'forkvote.room_event': r.event } },
              contextFrom({ traceparent: r.traceparent }),
            )
          : undefined,
      );
      let failed = true;
      try {
        const published = rows.map((r) => toPublished(r.event, r.data));
        await publishRoomEvents(
          this.redis,
          this.config.REDIS_PREFIX,
          rows.map((r, i) => ({
            outboxId: r.id,
            roomId: r.room_id,
            event: r.event,
            data: published[i],
            traceparent: spans[i]
              ? traceHeaders(trace.setSpan(context.active(), spans[i]))?.traceparent
              : null,
          })),
        );
        // Marked sent, and the batches' results kept (history.service), in one statement: either both or
        // neither, and a round published again keeps the same results again.
        await relay.client.query(
          `WITH kept AS (
             INSERT INTO "rooms"."batch_results" (room_id, batch_index, voter_count, winners, places)
             SELECT k.room_id, k.batch_index, k.voter_count,
                    ARRAY(SELECT jsonb_array_elements_text(k.winners)), k.places
               FROM jsonb_to_recordset($2::jsonb)
                    AS k(room_id uuid, batch_index integer, voter_count integer, winners jsonb, places jsonb)
             ON CONFLICT (room_id, batch_index) DO UPDATE
                SET voter_count = EXCLUDED.voter_count, winners = EXCLUDED.winners, places = EXCLUDED.places
           )
           UPDATE "rooms"."outbox" SET published_at = now() WHERE id = ANY($1::bigint[])`,
          [rows.map((r) => r.id), JSON.stringify(keptResults(rows, published))],
        );
        this.push.deliver(rows.map((r, i) => ({ ...r, published: published[i] })));
        failed = false;
      } finally {
        for (const span of spans) if (span) endSpan(span, failed);
      }
      return rows.length;
    } catch (err) {
      // Redis or PostgreSQL failed mid-round: nothing after the failure happened, and whichever replica
      // takes the lock next starts again from the oldest unmarked event (publishing is idempotent).
      this.letGoOfRelay(err as Error);
      throw err;
    }
  }

  /** Once a minute: published events and recorded answers older than KEEP_HOURS go. */
  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < 60_000) return;
    this.lastSweep = Date.now();
    await this.dataSource.query(
      `DELETE FROM "rooms"."outbox" WHERE published_at < now() - make_interval(hours => $1)`,
      [KEEP_HOURS],
    );
    await this.dataSource.query(
      `DELETE FROM "rooms"."command_log" WHERE created_at < now() - make_interval(hours => $1)`,
      [KEEP_HOURS],
    );
  }
}
