import {
  devFallbackEnabled,
  FlagSetting,
  IntSetting,
  NumberSetting,
  PlatformConfig,
  RequiredInProductionUnless,
} from '@forkvote/platform';
import { IsString, Matches } from 'class-validator';

export class AuthConfig extends PlatformConfig {
  /**
   * smtp(s)://user:pass@host:port. Empty means the development outbox (kept in Redis, readable via
   * /api/v1/dev/outbox outside production), which production uses only with ENABLE_DEV_OUTBOX=true.
   */
  @Matches(/^(smtps?:\/\/\S+)?$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  @RequiredInProductionUnless('ENABLE_DEV_OUTBOX', 'to keep mail in the development outbox')
  SMTP_URL = '';

  /** The development outbox in place of SMTP: on by default outside production, off in it. */
  @FlagSetting()
  ENABLE_DEV_OUTBOX: '' | 'true' | 'false' = '';

  @IsString()
  MAIL_FROM = 'ForkVote <no-reply@forkvote.app>';

  /** reCAPTCHA v3 secret. Empty means the development verifier, which accepts DEV_RECAPTCHA_TOKEN. */
  @IsString()
  @RequiredInProductionUnless('ENABLE_DEV_BOT_CHECK', 'to accept the development token')
  RECAPTCHA_SECRET = '';

  /** The development bot check (a fixed token) in place of reCAPTCHA: on outside production, off in it. */
  @FlagSetting()
  ENABLE_DEV_BOT_CHECK: '' | 'true' | 'false' = '';

  @NumberSetting(0, 1)
  RECAPTCHA_MIN_SCORE = 0.5;

  @Matches(/^https?:\/\/\S+$/, { message: 'RECAPTCHA_VERIFY_URL must be an http(s) URL' })
  RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';

  /** Lifetime of a session without rememberMe. */
  @IntSetting(1, 720)
  SESSION_TTL_HOURS = 12;

  /** Lifetime of a rememberMe session (and of its persistent cookie). */
  @IntSetting(1, 365)
  REMEMBER_ME_DAYS = 30;

  get devOutbox(): boolean {
    return !this.SMTP_URL && devFallbackEnabled(this, this.ENABLE_DEV_OUTBOX);
  }

  get devBotCheck(): boolean {
    return !this.RECAPTCHA_SECRET && devFallbackEnabled(this, this.ENABLE_DEV_BOT_CHECK);
  }
}
