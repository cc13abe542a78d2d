import { INestMicroservice, Type } from '@nestjs/common';
import Redis from 'ioredis';
import { createServer, Server } from 'node:http';
import { DataSource } from 'typeorm';
import { checkDependency } from './health';
import { REDIS } from './redis';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig, PlatformConfig } from './config';
import { createLogger } from './logger';
import { registerPoolGauges, registerStreamGauges, serveMetrics, startProcessMetrics } from './metrics';
import { createServiceServer, streamKeys } from './transport';

/** How long past its blocking read a stream consumer may go without going round before /live fails. */
export const STALL_MS = 30_000;

/** Creates and starts one service on the shared transport. Used by `main.ts` and by tests. */
export async function startService(
  service: string,
  module: Type<unknown>,
  config: PlatformConfig = loadConfig(PlatformConfig),
): Promise<INestMicroservice> {
  const logger = createLogger(service, config);
  startProcessMetrics(service);
  const server = createServiceServer(service, config);
  const app = await NestFactory.createMicroservice(module, {
    strategy: server,
    logger,
    bufferLogs: false,
  });
  app.enableShutdownHooks();
  await app.listen();
  registerPoolGauges(app.get(DataSource));
  registerStreamGauges(app.get<Redis>(REDIS), () => [streamKeys.requests(config.REDIS_PREFIX, service)]);
  if (config.HEALTH_PORT > 0) startProbeServer(app, server, config.HEALTH_PORT, config.METRICS_HOST);
  return app;
}

/**
 * Services speak only over Redis; this tiny HTTP server is for the orchestrator and Prometheus: `/live`
 * says the process runs and its stream consumer goes round (a consumer stuck for STALL_MS answers 503, and
 * the kubelet restarts the pod), `/ready` that its database and Redis answer and it is not shutting down,
 * `/metrics` what it is doing.
 */
function startProbeServer(
  app: INestMicroservice,
  consumer: { stalledForMs(): number },
  port: number,
  host: string,
): Server {
  const dataSource = app.get(DataSource);
  const redis = app.get<Redis>(REDIS);
  let closing = false;
  const server = createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/live') {
      const stalledMs = consumer.stalledForMs();
      return stalledMs > STALL_MS
        ? answer(503, { status: 'stalled', stalledMs })
        : answer(200, { status: 'ok' });
    }
    if (req.url === '/metrics') return void serveMetrics(req, res);
    if (req.url !== '/ready') return answer(404, { status: 'not found' });
    void Promise.all([
      checkDependency(() => dataSource.query('SELECT 1')),
      checkDependency(() => redis.ping()),
    ]).then(([database, redisHealth]) => {
      const ready = !closing && database.status === 'up' && redisHealth.status === 'up';
      answer(ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', database, redis: redisHealth });
    });
  });
  server.listen(port, host);
  process.once('SIGTERM', () => {
    closing = true;
    setTimeout(() => server.close(), 10_000).unref();
  });
  return server;
}

/**
 * The body of every service's `main.ts`: validate config (a bad value stops the process with a message
 * naming it), start, and on SIGTERM/SIGINT finish in-flight requests before exiting.
 */
export async function runService(
  service: string,
  module: Type<unknown>,
  configClass: new () => PlatformConfig = PlatformConfig,
): Promise<void> {
  try {
    // The service's own class, so a bad or missing variable stops it here, named, before Nest starts.
    const config = loadConfig(configClass);
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
