import '@forkvote/platform/dist/instrument';
import 'reflect-metadata';
import { createLogger, exitOnStartupError, loadConfig, serveMetrics } from '@forkvote/platform';
import { createServer } from 'node:http';
import { createGateway } from './create-gateway';
import { GatewayConfig } from './gateway.config';
import { HealthService } from './health/health.service';

async function main(): Promise<void> {
  const config = loadConfig(GatewayConfig);
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
