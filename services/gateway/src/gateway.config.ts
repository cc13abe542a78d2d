import {
  devFallbackEnabled,
  FlagSetting,
  IntSetting,
  NumberSetting,
  PlatformConfig,
  RequiredInProductionUnless,
} from '@forkvote/platform';
import { IsString, ValidateBy } from 'class-validator';
// Express's own parser of `trust proxy` lists; it throws on an address or CIDR it cannot read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const proxyAddr = require('proxy-addr') as { compile(list: string[]): unknown };

function parseTrustProxy(value: string): number | string[] | null {
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const list = value.split(',').map((part) => part.trim());
  try {
    proxyAddr.compile(list);
    return list;
  } catch {
    return null;
  }
}
import { resolve } from 'node:path';

export class GatewayConfig extends PlatformConfig {
  @IntSetting(0, 65535)
  PORT = 3000;

  /** Prometheus `/metrics`, on a port of its own so the public port never serves it; 0 turns it off. */
  @IntSetting(0, 65535)
  METRICS_PORT = 9464;

  /** Folder of the built web app; served at `/` with client routes falling back to index.html. */
  @IsString()
  WEB_DIST = resolve(__dirname, '../../../web/dist');

  /**
   * How long a client may take to send a request's headers, and the whole request with its body. A phone on
   * a bad network sends a few kilobytes well within these; a client that trickles bytes to hold a socket is
   * cut off (408) instead of holding it for minutes. Event streams are unaffected: their request is read at
   * once, and the answer is what stays open.
   */
  @IntSetting(1000, 120_000)
  HEADERS_TIMEOUT_MS = 15_000;

  @IntSetting(1000, 300_000)
  REQUEST_TIMEOUT_MS = 30_000;

  /** How long the health check waits for each service. */
  @IntSetting(50, 30_000)
  HEALTH_TIMEOUT_MS = 1500;

  /** How long the public health answer is reused: many open tabs poll it, each answer asks every service. */
  @IntSetting(0, 60_000)
  HEALTH_CACHE_MS = 5000;

  /** After SIGTERM, how long readiness reports draining before streams close (Kubernetes: ~5 s). */
  @IntSetting(0, 60_000)
  SHUTDOWN_DELAY_MS = 0;

  /** reCAPTCHA v3 site key the web app loads; empty means the development bot check. */
  @IsString()
  @RequiredInProductionUnless('ENABLE_DEV_BOT_CHECK', 'to use the development bot check')
  RECAPTCHA_SITE_KEY = '';

  /** Lets the web app use the development bot check without a site key (on outside production only). */
  @FlagSetting()
  ENABLE_DEV_BOT_CHECK: '' | 'true' | 'false' = '';

  /**
   * `true` serves the development mail outbox (password reset links) at /api/v1/dev/outbox, to loopback
   * callers only. Off unless turned on by name (`npm start` and the test stacks do); never in production.
   */
  @FlagSetting()
  SERVE_DEV_OUTBOX: '' | 'true' | 'false' = '';

  /** Swagger UI and its JSON at /api/docs: on outside production, in production only when `true`. */
  @FlagSetting()
  ENABLE_API_DOCS: '' | 'true' | 'false' = '';

  /**
   * Which proxies' X-Forwarded-For to believe, so rate limits count real clients: a hop count (`1` for one
   * ingress in front), or a comma list of addresses/CIDRs (or loopback, linklocal, uniquelocal).
   */
  @ValidateBy({
    name: 'trustProxy',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseTrustProxy(value) !== null,
      defaultMessage: () => 'TRUST_PROXY must be a hop count or a comma list of addresses and CIDRs',
    },
  })
  TRUST_PROXY = 'loopback';

  get devOutbox(): boolean {
    return this.NODE_ENV !== 'production' && this.SERVE_DEV_OUTBOX === 'true';
  }

  get apiDocs(): boolean {
    return devFallbackEnabled(this, this.ENABLE_API_DOCS);
  }

  /** TRUST_PROXY as Express's `trust proxy` setting: a number of hops or a list of subnets. */
  get trustProxy(): number | string[] {
    return parseTrustProxy(this.TRUST_PROXY)!;
  }

  /** The origin browsers use (PUBLIC_URL's scheme, host and port): state changes must come from it. */
  get publicOrigin(): string {
    return new URL(this.PUBLIC_URL).origin;
  }

  /** Multiplies every rate limit (login, register, password reset); 0 turns them off. */
  @NumberSetting(0, 1000)
  RATE_LIMIT_SCALE = 1;
}
