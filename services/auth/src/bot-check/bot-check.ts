import { Injectable, Logger } from '@nestjs/common';
import { AuthConfig } from '../auth.config';

/** Accepted by the development verifier (no RECAPTCHA_SECRET configured). */
export const DEV_RECAPTCHA_TOKEN = 'dev-recaptcha-token';

interface SiteverifyAnswer {
  success: boolean;
  score?: number;
  action?: string;
  'error-codes'?: string[];
}

/**
 * reCAPTCHA v3: asks `siteverify` whether the token is valid, was made for the action 'register', and
 * scores at least RECAPTCHA_MIN_SCORE. Without a secret, and only where the development bot check is on
 * (outside production, or ENABLE_DEV_BOT_CHECK=true), a development verifier accepts DEV_RECAPTCHA_TOKEN.
 */
@Injectable()
export class BotCheck {
  private readonly logger = new Logger(BotCheck.name);

  constructor(private readonly config: AuthConfig) {}

  /** 'off' only in production with ENABLE_DEV_BOT_CHECK=false and no secret, which config refuses. */
  get mode(): 'recaptcha' | 'development' | 'off' {
    if (this.config.RECAPTCHA_SECRET) return 'recaptcha';
    return this.config.devBotCheck ? 'development' : 'off';
  }

  async passes(token: string, action: string, remoteIp?: string): Promise<boolean> {
    if (this.mode === 'off') return false;
    if (this.mode === 'development') return token === DEV_RECAPTCHA_TOKEN;
    const form = new URLSearchParams({ secret: this.config.RECAPTCHA_SECRET, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    try {
      const response = await fetch(this.config.RECAPTCHA_VERIFY_URL, {
        method: 'POST',
        body: form,
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
      const answer = (await response.json()) as SiteverifyAnswer;
      const passed =
        answer.success && answer.action === action && (answer.score ?? 0) >= this.config.RECAPTCHA_MIN_SCORE;
      if (!passed) {
        this.logger.warn(
          `Bot check refused: success=${answer.success} action=${answer.action} score=${answer.score} errors=${answer['error-codes']?.join(',')}`,
        );
      }
      return passed;
    } catch (err) {
      // Fail closed: an unverifiable registration is refused, with the same message as a failed check.
      this.logger.error(`Bot check unavailable: ${(err as Error).message}`);
      return false;
    }
  }
}
