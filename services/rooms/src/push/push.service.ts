import { Injectable, Logger } from '@nestjs/common';
import {
  DecisionRule,
  headlineFor,
  HoldoutQuestion,
  holdoutQuestionText,
  invitationText,
  PUSH_MESSAGES,
  PushMessage,
  PushSubscriptionDto,
  ROOM_EVENTS,
  ROOM_MESSAGES,
} from '@forkvote/contracts';
import { fail, PlatformConfig } from '@forkvote/platform';
import { createECDH, hkdfSync } from 'node:crypto';
import { DataSource } from 'typeorm';
import webPush from 'web-push';

/** An outbox row as the relay read it, and what it published for it. */
export interface PublishedRow {
  id: string;
  room_id: string;
  event: string;
  data: object;
  published: object;
}

/** A notification to some members of a room: everyone present but `except`, or only `only`. */
interface Notice {
  outboxId: string;
  roomId: string;
  message: PushMessage;
  except?: string;
  only?: string[];
  /** The host caused it (start, asking the holdouts). */
  exceptHost?: boolean;
  /** To the people the room invited (not members yet), on every browser they allowed in any room. */
  invitees?: boolean;
}

interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How long a push service keeps an undelivered notification (the moment has passed after that). */
const TTL_SECONDS = 15 * 60;

/**
 * Web Push (the web-push library: VAPID, aes128gcm) to the room members who allowed it: voting started,
 * the results are in, a holdout question waits. Sent after the relay has published the event, so it
 * follows the outbox: once per event and subscription (`push_deliveries` is claimed before sending; a relay
 * that publishes again finds it claimed), never to the person who caused it.
 */
@Injectable()
export class PushService {
  private readonly logger = new Logger(PushService.name);
  private readonly keys: { publicKey: string; privateKey: string } | null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: PlatformConfig,
  ) {
    this.keys = config.PUSH_ENABLED === 'true' ? vapidKeys(config) : null;
  }

  publicKey(): { publicKey: string } {
    if (!this.keys) fail(404, PUSH_MESSAGES.unavailable);
    return { publicKey: this.keys.publicKey };
  }

  async subscribe(roomId: string, userId: string, body: PushSubscriptionDto): Promise<{ subscribed: true }> {
    if (!this.keys) fail(404, PUSH_MESSAGES.unavailable);
    const rows = (await this.dataSource.query(
      `INSERT INTO "rooms"."push_subscriptions" (room_id, user_id, endpoint, p256dh, auth)
       SELECT $1::uuid, $2::varchar, $3::varchar, $4::varchar, $5::varchar
        WHERE EXISTS (SELECT 1 FROM "rooms"."members" m
                       WHERE m.room_id = $1::uuid AND m.user_id = $2::varchar AND m.left_at IS NULL)
       ON CONFLICT (room_id, user_id, endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth
       RETURNING 1`,
      [roomId, userId, body.endpoint, body.keys.p256dh, body.keys.auth],
    )) as unknown[];
    if (rows.length === 0) fail(403, ROOM_MESSAGES.notMember);
    return { subscribed: true };
  }

  /** After the relay marked `rows` published: their notifications, in the background. */
  deliver(rows: PublishedRow[]): void {
    if (!this.keys) return;
    const notices = rows.flatMap(noticesOf);
    if (notices.length === 0) return;
    this.send(notices).catch((err: Error) => this.logger.warn(`Push failed: ${err.message}`));
  }

  private async send(notices: Notice[]): Promise<void> {
    for (const notice of notices) {
      const targets = notice.invitees
        ? await this.invitees(notice.roomId)
        : ((await this.dataSource.query(
            `SELECT s.endpoint, s.p256dh, s.auth FROM "rooms"."push_subscriptions" s
           JOIN "rooms"."members" m ON m.room_id = s.room_id AND m.user_id = s.user_id AND m.left_at IS NULL
           JOIN "rooms"."rooms" r ON r.id = s.room_id
          WHERE s.room_id = $1 AND ($2::varchar IS NULL OR s.user_id <> $2)
            AND ($3::varchar[] IS NULL OR s.user_id = ANY($3))
            AND NOT ($4 AND s.user_id = r.created_by_user_id)`,
            [notice.roomId, notice.except ?? null, notice.only ?? null, notice.exceptHost ?? false],
          )) as PushTarget[]);
      if (targets.length === 0) continue;
      // Claimed before sending: at most once per event and subscription, even when the event is published
      // again (a relay that died before marking it) or two relays overlap.
      const claimed = (await this.dataSource.query(
        `INSERT INTO "rooms"."push_deliveries" (outbox_id, endpoint)
         SELECT $1, e FROM unnest($2::varchar[]) AS e ON CONFLICT DO NOTHING RETURNING endpoint`,
        [notice.outboxId, targets.map((t) => t.endpoint)],
      )) as { endpoint: string }[];
      const mine = new Set(claimed.map((c) => c.endpoint));
      await Promise.all(targets.filter((t) => mine.has(t.endpoint)).map((t) => this.sendOne(notice, t)));
    }
  }

  /** The browsers of the people a room invited: each subscription they gave, in any room, once. */
  private async invitees(roomId: string): Promise<PushTarget[]> {
    return (await this.dataSource.query(
      `SELECT DISTINCT ON (s.endpoint) s.endpoint, s.p256dh, s.auth
         FROM "rooms"."invitations" i
         JOIN "rooms"."push_subscriptions" s ON s.user_id = i.user_id
        WHERE i.room_id = $1 AND i.dismissed_at IS NULL
        ORDER BY s.endpoint, s.created_at DESC`,
      [roomId],
    )) as PushTarget[];
  }

  private async sendOne(notice: Notice, target: PushTarget) {
    try {
      await webPush.sendNotification(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(notice.message),
        {
          TTL: TTL_SECONDS,
          urgency: 'high',
          vapidDetails: { subject: this.config.VAPID_SUBJECT, ...this.keys! },
        },
      );
    } catch (err) {
      const status = (err as { statusCode?: number }).statusCode;
      // Gone: the browser dropped the subscription; forget it.
      if (status === 404 || status === 410) {
        await this.dataSource.query(`DELETE FROM "rooms"."push_subscriptions" WHERE endpoint = $1`, [
          target.endpoint,
        ]);
        return;
      }
      this.logger.warn(`Push to a member failed (${status ?? (err as Error).message})`);
    }
  }
}

/** The notifications an event makes, if any. */
function noticesOf(row: PublishedRow): Notice[] {
  const base = { outboxId: row.id, roomId: row.room_id };
  const data = row.data as Record<string, unknown>;
  switch (row.event) {
    case ROOM_EVENTS.started:
      return [
        {
          ...base,
          exceptHost: true,
          message: {
            title: 'Voting has started',
            body: 'Say yes or no to 5 places. Your group is waiting.',
            url: '/voting',
            tag: `forkvote-${row.room_id}-voting`,
          },
        },
      ];
    case ROOM_EVENTS.ballotsSubmitted: {
      const result = row.published as { winners: string[]; decisionRule?: DecisionRule };
      return [
        {
          ...base,
          // The last ballot closed the batch: its voter is looking at the results already.
          except: (data.closedBy as string | undefined) ?? undefined,
          message: {
            title: 'The results are in',
            body: headlineFor(result.winners.length, result.decisionRule),
            url: '/results',
            tag: `forkvote-${row.room_id}-results`,
          },
        },
      ];
    }
    case ROOM_EVENTS.holdoutRoundStarted: {
      const questions = (data.questions ?? []) as HoldoutQuestion[];
      const people = [...new Set(questions.flatMap((q) => q.userIds))];
      return people.map((userId) => ({
        ...base,
        only: [userId],
        exceptHost: true,
        message: {
          title: 'Could you live with it?',
          body: questions
            .filter((q) => q.userIds.includes(userId))
            .map((q) => holdoutQuestionText(q.placeName))
            .join(' '),
          url: '/results',
          tag: `forkvote-${row.room_id}-holdout`,
        },
      }));
    }
    case ROOM_EVENTS.groupInvited: {
      const { groupName, hostName } = data as { groupName: string; hostName: string };
      return [
        {
          ...base,
          invitees: true,
          message: {
            title: 'Your group is deciding where to eat',
            body: invitationText(hostName, groupName),
            url: '/',
            tag: `forkvote-${row.room_id}-invite`,
          },
        },
      ];
    }
    default:
      return [];
  }
}

/**
 * The configured VAPID pair; outside production, when none is set, one derived from JWT_SECRET, so every
 * replica of a development stack signs with the same key the browsers subscribed with.
 */
function vapidKeys(config: PlatformConfig): { publicKey: string; privateKey: string } {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(hkdfSync('sha256', config.JWT_SECRET, '', 'forkvote vapid', 32)));
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url'),
  };
}
