import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { OutboxMessage } from '@forkvote/contracts';
import { REDIS } from '@forkvote/platform';
import Redis from 'ioredis';
import { createTransport, Transporter } from 'nodemailer';
import { AuthConfig } from '../auth.config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const OUTBOX_SIZE = 50;

/**
 * Sends mail over SMTP when SMTP_URL is set. Otherwise, where the development outbox is on, mail is kept
 * (last 50) in Redis so `GET /api/v1/dev/outbox` can show it outside production; its text is never logged.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger(Mailer.name);
  private readonly transport?: Transporter;

  constructor(
    private readonly config: AuthConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    if (config.SMTP_URL) this.transport = createTransport(config.SMTP_URL);
  }

  private get outboxKey(): string {
    return `${this.config.REDIS_PREFIX}:dev-outbox`;
  }

  async send(mail: Mail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.MAIL_FROM, ...mail });
      return;
    }
    if (!this.config.devOutbox) throw new Error('No SMTP_URL and the development outbox is off');
    const message: OutboxMessage = { ...mail, sentAt: new Date().toISOString() };
    await this.redis
      .multi()
      .lpush(this.outboxKey, JSON.stringify(message))
      .ltrim(this.outboxKey, 0, OUTBOX_SIZE - 1)
      .exec();
    // Never the text: it may hold a reset link, whose token is as good as the password.
    this.logger.log(`Development outbox: "${mail.subject}" kept for GET /api/v1/dev/outbox`);
  }

  /** Newest first. Empty when mail goes over SMTP. */
  async outbox(): Promise<OutboxMessage[]> {
    const raw = await this.redis.lrange(this.outboxKey, 0, OUTBOX_SIZE - 1);
    return raw.map((item) => JSON.parse(item) as OutboxMessage);
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
