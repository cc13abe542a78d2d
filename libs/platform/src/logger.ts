import { ConsoleLogger, LogLevel } from '@nestjs/common';
import { PlatformConfig } from './config';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Structured (JSON line) logs by default; LOG_FORMAT=pretty for a human at a terminal. */
export function createLogger(
  app: string,
  config: Pick<PlatformConfig, 'LOG_LEVEL' | 'LOG_FORMAT'>,
): ConsoleLogger {
  const logLevels = LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1);
  return config.LOG_FORMAT === 'json'
    ? new ConsoleLogger(app, { json: true, logLevels })
    : new ConsoleLogger(app, { prefix: app, logLevels, colors: process.stdout.isTTY });
}
