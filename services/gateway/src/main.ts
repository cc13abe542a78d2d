import 'reflect-metadata';
import {
  createLogger,
  exitOnStartupError,
  loadConfig,
  serveMetrics,
  startTracing,
  stopTracing,
} from '@forkvote/platform';
import { createServer } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { createGateway } from './create-gateway';
import { GatewayConfig } from './gateway.config';
import { HealthService } from './health/health.service';

/**
 * The old generation may grow to twice what the last full collection kept before the next one. A gateway
 * holds a large, steady heap (its open streams) and promotes a steady trickle of request garbage; V8's own
 * choice (about 1.25×) ran a full collection every 2–4 s in the vote storm, and each one lined up with a
 * spike of 100 ms or more in event delivery. The cost is memory: up to twice the live heap between
 * collections (a 216 MB peak at 10,000 streams, within the pod's 1 GiB). Read at every full collection, so
 * setting it here, before the app exists, covers the process's whole life.
 */
setFlagsFromString('--heap-growing-percent=100');
/**
 * No allocation-site pretenuring. V8 allocates the objects of a literal straight into the old generation once
 * nearly all of them have survived a young collection, and under load several of the gateway's per-request
 * literals met that bar (its pretenuring trace showed five at 100 %) though a request lasts milliseconds. A
 * young collection counts every pointer from the old generation as live, dead objects' too (such as the
 * hash tables a busy Map leaves behind each time it makes a new one), so request objects such pointers
 * reached were kept until the next full collection; pretenured, the literals' own dead objects then held
 * more. Over 15,000 joins: 8.9 KB of each join promoted and 29 µs of young collections a join with
 * pretenuring, 1.8 KB and 15 µs without, and the gateway's CPU a join 199 µs against 177.
 */
setFlagsFromString('--no-allocation-site-pretenuring');

async function main(): Promise<void> {
  const config = loadConfig(GatewayConfig);
  // Before the app exists, so every span it makes has a provider (only with OTEL_EXPORTER_OTLP_ENDPOINT).
  if (startTracing('gateway')) process.once('SIGTERM', () => void stopTracing());
  const app = await createGateway(config);
  await app.listen(config.PORT);
  const logger = createLogger('gateway', config);
  logger.log(`gateway is listening on ${await app.getUrl()}`);
  if (config.METRICS_PORT > 0) {
    const health = app.get(HealthService);
    const metrics = createServer((req, res) => {
      if (req.url === '/metrics') return void serveMetrics(req, res);
      // The operators' health report: every service's instance, latency, mode and error.
      if (req.url === '/health') {
        return void health.check().then((report) => {
          res.writeHead(report.status === 'ok' ? 200 : 503, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify(report));
        });
      }
      res.writeHead(404).end();
    });
    // A second gateway on the same machine finds the port taken: it serves without metrics, and says so.
    metrics.on('error', (err) => logger.warn(`metrics port ${config.METRICS_PORT}: ${err.message}`));
    metrics.listen(config.METRICS_PORT, config.METRICS_HOST, () =>
      logger.log(`metrics and the health report on ${config.METRICS_HOST}:${config.METRICS_PORT}`),
    );
    // Not a reason to stay up: the app's own shutdown decides when the process ends.
    metrics.unref();
  }
}

main().catch((err: unknown) => exitOnStartupError('gateway', err));
