import 'reflect-metadata';
import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsIP,
  IsNumber,
  IsString,
  Matches,
  Max,
  Min,
  ValidateBy,
  ValidationArguments,
  validateSync,
} from 'class-validator';

/** Only for development and tests; production refuses to start with it. */
export const DEV_JWT_SECRET = 'forkvote-development-secret-do-not-use-in-production';

const isProduction = (args: ValidationArguments | undefined) =>
  (args?.object as { NODE_ENV?: string } | undefined)?.NODE_ENV === 'production';

/**
 * A variable production cannot do without: empty means a development fallback (a local checkout, a dev
 * bot check, a mail outbox), which production never uses unless `allowedFallback` says the operator
 * asked for it explicitly. Outside production an empty value is fine.
 */
export const RequiredInProduction = (
  message: string,
  allowedFallback: (config: never) => boolean = () => false,
): PropertyDecorator =>
  ValidateBy({
    name: 'requiredInProduction',
    validator: {
      validate: (value: unknown, args) =>
        !isProduction(args) ||
        allowedFallback(args?.object as never) ||
        (typeof value === 'string' && value !== ''),
      defaultMessage: () => message,
    },
  });

/**
 * RequiredInProduction where the development fallback is allowed by a flag of the same config set to
 * `true`: "<NAME> is required in production, or set <FLAG>=true <purpose>".
 */
export const RequiredInProductionUnless =
  (flag: string, purpose: string): PropertyDecorator =>
  (target, key) =>
    RequiredInProduction(
      `${String(key)} is required in production, or set ${flag}=true ${purpose}`,
      (config: Record<string, unknown>) => config[flag] === 'true',
    )(target, key);

/**
 * A signing secret: in production at least 32 bytes and not a placeholder shipped in deploy/ or compose
 * (anything containing CHANGE-ME) nor the development secret. Empty passes when `optional`.
 */
const SigningSecret = (name: string, optional: boolean): PropertyDecorator =>
  ValidateBy({
    name: 'signingSecret',
    validator: {
      validate: (value: unknown, args) => {
        if (typeof value !== 'string') return false;
        if (optional && value === '') return true;
        if (!isProduction(args)) return value.length > 0;
        return Buffer.byteLength(value) >= 32 && !/CHANGE-ME/i.test(value) && value !== DEV_JWT_SECRET;
      },
      defaultMessage: () =>
        `${name} must be a secret of your own in production: at least 32 bytes, not a placeholder containing CHANGE-ME, not the development secret`,
    },
  });

/** A VAPID key: required in production when PUSH_ENABLED is true; base64url whenever set. */
const PushKey = (): PropertyDecorator =>
  ValidateBy({
    name: 'pushKey',
    validator: {
      validate: (value: unknown, args) => {
        if (typeof value !== 'string') return false;
        if (value !== '') return /^[A-Za-z0-9_-]{20,200}$/.test(value);
        const pushOn = (args?.object as { PUSH_ENABLED?: string } | undefined)?.PUSH_ENABLED === 'true';
        return !(pushOn && isProduction(args));
      },
      defaultMessage: (args) =>
        `${args?.property} must be a base64url VAPID key, and is required in production when PUSH_ENABLED=true`,
    },
  });

/** `true` or `false`; empty means the default given where the setting is used. */
export const FlagSetting = (): PropertyDecorator =>
  ValidateBy({
    name: 'flagSetting',
    validator: {
      validate: (value: unknown) => value === '' || value === 'true' || value === 'false',
      defaultMessage: (args) => `${args?.property} must be true or false`,
    },
  });

/** A development fallback is on outside production, and in production only when its flag says `true`. */
export function devFallbackEnabled(config: { NODE_ENV: string }, flag: '' | 'true' | 'false'): boolean {
  return flag === '' ? config.NODE_ENV !== 'production' : flag === 'true';
}

/** Variables whose values are never repeated in a configuration error. */
const SECRET_VARIABLE = /SECRET|PASSWORD|TOKEN|_KEY$/;

/** A value as a configuration error may show it: secrets hidden, credentials in a URL masked. */
function shown(name: string, value: string | undefined): string {
  if (value && SECRET_VARIABLE.test(name)) return '(hidden)';
  // Every URL of a list (REDIS_URL may name several nodes) has its credentials masked.
  return JSON.stringify((value ?? '').replace(/\/\/[^/@\s,]*@/g, '//***@'));
}

const toNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);

/** A whole-number setting read from the environment, between `min` and `max`. */
export const IntSetting =
  (min: number, max: number): PropertyDecorator =>
  (target, key) => {
    Transform(toNumber)(target, key);
    IsInt()(target, key);
    Min(min)(target, key);
    Max(max)(target, key);
  };

/** A decimal setting read from the environment, between `min` and `max`. */
export const NumberSetting =
  (min: number, max: number): PropertyDecorator =>
  (target, key) => {
    Transform(toNumber)(target, key);
    IsNumber()(target, key);
    Min(min)(target, key);
    Max(max)(target, key);
  };

/**
 * Configuration every process shares. Each app may extend it with its own fields; `loadConfig` validates
 * the environment against the class and stops the process with a message naming each bad variable.
 * Every field has a default (possibly ''), which is how `loadConfig` knows which variables to read.
 */
export class PlatformConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/forkvote';

  /** One redis:// URL; with REDIS_CLUSTER, one or more nodes of the cluster, comma-separated. */
  @Matches(/^rediss?:\/\/[^\s,]+(,rediss?:\/\/[^\s,]+)*$/, {
    message: 'REDIS_URL must be a redis:// URL (with REDIS_CLUSTER, a comma-separated list of them)',
  })
  // A single-node client given a list would talk to the first node alone and meet MOVED on most keys.
  @ValidateBy({
    name: 'oneRedisUnlessCluster',
    validator: {
      validate: (value: unknown, args) =>
        typeof value !== 'string' ||
        !value.includes(',') ||
        (args?.object as { REDIS_CLUSTER?: string } | undefined)?.REDIS_CLUSTER === 'true',
      defaultMessage: () =>
        'REDIS_URL names several nodes: set REDIS_CLUSTER=true for a Redis Cluster, or give one redis:// URL',
    },
  })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * `true` when REDIS_URL names Redis Cluster nodes: commands follow the cluster's slots, and room events
   * and service replies go over sharded pub/sub.
   */
  @FlagSetting()
  REDIS_CLUSTER: '' | 'true' | 'false' = '';

  /** Prefix of every Redis key and channel, so several stacks (or test runs) can share one Redis. */
  @Matches(/^[a-zA-Z0-9_-]{1,40}$/, { message: 'REDIS_PREFIX must be 1-40 letters, digits, _ or -' })
  REDIS_PREFIX = 'fv';

  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'fatal' | 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  @IsIn(['json', 'pretty'])
  LOG_FORMAT: 'json' | 'pretty' = 'json';

  /** How long a caller waits for a service's answer. */
  @IntSetting(100, 120_000)
  RPC_TIMEOUT_MS = 5000;

  /**
   * How long a request may sit unacknowledged with a silent (dead) replica before a live one claims it.
   * Live replicas refresh the requests they work on, so this can be well under RPC_TIMEOUT_MS.
   */
  @IntSetting(100, 600_000)
  RPC_CLAIM_IDLE_MS = 2000;

  /** Approximate cap on each request/event stream's length. */
  @IntSetting(100, 10_000_000)
  RPC_STREAM_MAXLEN = 10_000;

  /** Where browsers reach the product; used in mails and payment return addresses. */
  @Matches(/^https?:\/\/[^\s/]+(\/\S*)?$/, { message: 'PUBLIC_URL must be an http(s) URL' })
  PUBLIC_URL = 'http://localhost:3000';

  /**
   * The root of every token key: session, room-member and room-host tokens are each signed with a key
   * derived from it (HKDF), so no kind can pass for another.
   */
  @SigningSecret('JWT_SECRET', false)
  JWT_SECRET = DEV_JWT_SECRET;

  /** During a rotation, the secret before JWT_SECRET: tokens it signed still verify until they expire. */
  @SigningSecret('JWT_SECRET_PREVIOUS', true)
  JWT_SECRET_PREVIOUS = '';

  /**
   * Whether a service applies its migrations when it starts. Kubernetes runs them once in a Job instead
   * (false there), so replicas never race; locally and in tests it is simplest to migrate on start.
   */
  @IsIn(['true', 'false'])
  MIGRATIONS_ON_START: 'true' | 'false' = 'true';

  /**
   * rooms: how often the outbox relay looks for events no notification reached it for (a replica taking
   * over the relay, a notification lost with a connection). Commits wake it at once.
   */
  @IntSetting(50, 600_000)
  OUTBOX_POLL_MS = 500;

  /** Port of the small HTTP server answering /live and /ready for orchestrators; 0 turns it off. */
  @IntSetting(0, 65535)
  HEALTH_PORT = 0;

  /**
   * The address the operators' listeners bind (a service's HEALTH_PORT, the gateway's METRICS_PORT):
   * loopback by default, so on a developer's machine only that machine scrapes them; `0.0.0.0` in a pod,
   * where the kubelet's probes and Prometheus reach them at the pod's address (deploy/k8s sets it).
   */
  @IsIP()
  METRICS_HOST = '127.0.0.1';

  /**
   * Web Push to room members who allow it (rooms sends, the gateway hands browsers the public key). Off by
   * default; on, production needs VAPID keys of its own, and elsewhere a missing pair is made at start.
   */
  @IsIn(['true', 'false'])
  PUSH_ENABLED: 'true' | 'false' = 'false';

  /** The VAPID key pair (base64url, as `web-push generate-vapid-keys` prints it). */
  @PushKey()
  VAPID_PUBLIC_KEY = '';

  @PushKey()
  VAPID_PRIVATE_KEY = '';

  /** Who push services may contact about our messages: a mailto: or https: address. */
  @Matches(/^(mailto:\S+@\S+|https:\/\/\S+)$/, {
    message: 'VAPID_SUBJECT must be a mailto: or https: address',
  })
  VAPID_SUBJECT = 'mailto:push@forkvote.invalid';

  /** Names this process in logs and health answers; empty means host name and pid. */
  @IsString()
  INSTANCE_ID = '';
}

export class ConfigError extends Error {}

/** Validates `env` against `cls`; throws a ConfigError listing every bad variable by name. */
export function loadConfig<T extends object>(cls: new () => T, env: NodeJS.ProcessEnv = process.env): T {
  const defaults = new cls() as Record<string, unknown>;
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(defaults)) {
    const value = env[key];
    raw[key] = value === undefined || value === '' ? defaults[key] : value;
  }
  const config = plainToInstance(cls, raw);
  const errors = validateSync(config, { whitelist: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const messages = Object.values(e.constraints ?? {}).join('; ');
      return `  ${e.property}=${shown(e.property, env[e.property])}: ${messages}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}
