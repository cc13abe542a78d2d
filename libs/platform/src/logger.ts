import { LoggerService, LogLevel } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { PlatformConfig } from './config';
import { currentRequestId } from './request-context';

/** Nest's level names as pino's. */
const PINO_LEVELS: Record<LogLevel, pino.Level> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

let root: pino.Logger | undefined;

/**
 * The process's pino logger: one JSON object per line (level, time, service, msg, and `reqId` whenever the
 * line is written while handling a request, in any process it reached); LOG_FORMAT=pretty for a human at
 * a terminal (pino-pretty). Created once per process.
 */
export function rootLogger(
  app: string,
  config: Pick<PlatformConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>,
): pino.Logger {
  root ??= pino({
    level: PINO_LEVELS[config.LOG_LEVEL],
    base: { service: app, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const reqId = currentRequestId();
      return reqId ? { reqId } : {};
    },
    ...(config.LOG_FORMAT === 'pretty'
      ? {
          transport: {
            target: 'pino-pretty',
            // One line each; `npm start` already prefixes every line with the process's name.
            options: { colorize: process.stdout.isTTY, singleLine: true, ignore: 'pid,hostname,service' },
          },
        }
      : {}),
  });
  return root;
}

/** Nest's logger for this process (nestjs-pino over the root logger): what `new Logger(Context)` writes to. */
export function createLogger(
  app: string,
  config: Pick<PlatformConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>,
): LoggerService {
  const params = { pinoHttp: { logger: rootLogger(app, config) } };
  return new NestPinoLogger(new PinoLogger(params), params);
}
