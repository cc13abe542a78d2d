import { IntSetting, NumberSetting, PlatformConfig } from '@forkvote/platform';
import { IsString } from 'class-validator';
import { resolve } from 'node:path';

export class GatewayConfig extends PlatformConfig {
  @IntSetting(0, 65535)
  PORT = 3000;

  /** Folder of the built web app; served at `/` with client routes falling back to index.html. */
  @IsString()
  WEB_DIST = resolve(__dirname, '../../../web/dist');

  /** How long the health check waits for each service. */
  @IntSetting(50, 30_000)
  HEALTH_TIMEOUT_MS = 1500;

  /** After SIGTERM, how long readiness reports draining before streams close (Kubernetes: ~5 s). */
  @IntSetting(0, 60_000)
  SHUTDOWN_DELAY_MS = 0;

  /** reCAPTCHA v3 site key the web app loads; empty means the development bot check. */
  @IsString()
  RECAPTCHA_SITE_KEY = '';

  /** Multiplies every rate limit (login, register, password reset); 0 turns them off. */
  @NumberSetting(0, 1000)
  RATE_LIMIT_SCALE = 1;
}
