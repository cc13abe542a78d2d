import { IntSetting, NumberSetting, PlatformConfig } from '@forkvote/platform';
import { IsString, Matches } from 'class-validator';

export class AuthConfig extends PlatformConfig {
  /** smtp(s)://user:pass@host:port; empty means the development outbox (logged, readable via /api/v1/dev/outbox). */
  @Matches(/^(smtps?:\/\/\S+)?$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL = '';

  @IsString()
  MAIL_FROM = 'ForkVote <no-reply@forkvote.app>';

  /** reCAPTCHA v3 secret; empty means the development verifier, which accepts DEV_RECAPTCHA_TOKEN. */
  @IsString()
  RECAPTCHA_SECRET = '';

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
}
