import { INestMicroservice, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, PlatformConfig } from './config';
import { createLogger } from './logger';
import { createServiceServer } from './transport';

/** Creates and starts one service on the shared transport. Used by `main.ts` and by tests. */
export async function startService(
  service: string,
  module: Type<unknown>,
  config: PlatformConfig = loadConfig(PlatformConfig),
): Promise<INestMicroservice> {
  const logger = createLogger(service, config);
  const app = await NestFactory.createMicroservice(module, {
    strategy: createServiceServer(service, config),
    logger,
    bufferLogs: false,
  });
  app.enableShutdownHooks();
  await app.listen();
  return app;
}

/**
 * The body of every service's `main.ts`: validate config (a bad value stops the process with a message
 * naming it), start, and on SIGTERM/SIGINT finish in-flight requests before exiting.
 */
export async function runService(service: string, module: Type<unknown>): Promise<void> {
  try {
    const config = loadConfig(PlatformConfig);
    await startService(service, module, config);
    createLogger(service, config).log(`${service} service is listening`);
  } catch (err) {
    exitOnStartupError(service, err);
  }
}

export function exitOnStartupError(app: string, err: unknown): never {
  const message = err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err));
  process.stderr.write(`[${app}] failed to start: ${message}\n`);
  process.exit(1);
}
