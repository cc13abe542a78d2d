import 'reflect-metadata';
import { createLogger, exitOnStartupError, loadConfig } from '@forkvote/platform';
import { createGateway } from './create-gateway';
import { GatewayConfig } from './gateway.config';

async function main(): Promise<void> {
  const config = loadConfig(GatewayConfig);
  const app = await createGateway(config);
  await app.listen(config.PORT);
  createLogger('gateway', config).log(`gateway is listening on ${await app.getUrl()}`);
}

main().catch((err: unknown) => exitOnStartupError('gateway', err));
