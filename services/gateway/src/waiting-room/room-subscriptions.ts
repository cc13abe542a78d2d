import { Logger } from '@nestjs/common';
import { parseRoomEvent, PublishedRoomEvent, roomEventKeys } from '@forkvote/room-events';
import type Redis from 'ioredis';
import { sseRoomEventsReceived, sseRoomSubscriptions } from '../common/gateway-metrics';

/** What the subscriptions need of their Redis connection (a test gives a stand-in). */
export type Subscriber = Pick<Redis, 'on' | 'ssubscribe' | 'sunsubscribe' | 'quit'>;

/**
 * This process's subscriptions to room channels: one per room that has streams here, all on one connection
 * (on Redis Cluster, one per shard), so each gateway receives only its own rooms' events. Each event that
 * arrives is parsed once and handed to `onEvent`.
 */
export class RoomSubscriptions {
  private readonly logger = new Logger(RoomSubscriptions.name);
  private subscriber?: Subscriber;
  /** Each subscribed room's subscription, settled once it is active (or refused). */
  private readonly active = new Map<string, Promise<void>>();

  constructor(
    private readonly prefix: string,
    private readonly onEvent: (event: PublishedRoomEvent) => void,
  ) {}

  listen(subscriber: Subscriber): void {
    this.subscriber = subscriber;
    subscriber.on('error', (err: Error) => this.logger.warn(`Redis (room events): ${err.message}`));
    subscriber.on('smessage', (_channel: string, message: string) => {
      const event = parseRoomEvent(message);
      if (!event) return;
      sseRoomEventsReceived.inc();
      this.onEvent(event);
    });
  }

  /**
   * Resolves once the room's channel is subscribed: every event published from then on arrives. A refused
   * subscription rejects, and is asked for again by the room's next call.
   */
  subscribe(roomId: string): Promise<void> {
    let subscribed = this.active.get(roomId);
    if (!subscribed) {
      sseRoomSubscriptions.inc();
      subscribed = this.subscriber!.ssubscribe(roomEventKeys.channel(this.prefix, roomId)).then(
        () => undefined,
        (err: unknown) => {
          if (this.active.get(roomId) === subscribed) {
            this.active.delete(roomId);
            sseRoomSubscriptions.dec();
          }
          throw err;
        },
      );
      this.active.set(roomId, subscribed);
    }
    return subscribed;
  }

  /** Drops the room's subscription (its last stream here closed). */
  unsubscribe(roomId: string): void {
    if (!this.active.delete(roomId)) return;
    sseRoomSubscriptions.dec();
    // Commands on one connection run in order: a later subscribe to the room lands after this.
    this.subscriber!.sunsubscribe(roomEventKeys.channel(this.prefix, roomId)).catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
