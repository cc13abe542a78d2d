import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import createExpress, { type Express } from 'express';
import { createServer, type Server, type ServerOptions } from 'node:http';
import cookieParser from 'cookie-parser';
import { SwaggerModule } from '@nestjs/swagger';
import { createLogger, SERVICE_CLIENT, startProcessMetrics } from '@forkvote/platform';
import { bodyGuard } from './common/body-guard';
import { requestTracking } from './common/request-tracking';
import {
  apiAnswersNoStore,
  formBodyOnFormPosts,
  requestOriginGuard,
  securityHeaders,
} from './common/http-security';
import { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { buildApiDocument } from './openapi';
import { serveWebApp } from './web-app';
import { planPreview } from './plans/plans.controller';

/** How long an idle kept-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;

/**
 * Nest's Express adapter, whose HTTP server is made with the gateway's timeouts for reading a request. Node
 * reads how often it checks them (`connectionsCheckingInterval`, 30 s by default) only when a server is made,
 * so they are given here, through the adapter's own hook for making its server.
 */
class GatewayHttpAdapter extends ExpressAdapter {
  constructor(
    instance: Express,
    private readonly serverOptions: ServerOptions,
  ) {
    super(instance);
  }

  override initHttpServer(): void {
    this.setHttpServer(createServer(this.serverOptions, this.getInstance()));
  }
}

/** Builds the gateway app (used by main.ts and by tests): /api/v1, docs at /api/docs, the web app at /. */
export async function createGateway(config: GatewayConfig): Promise<INestApplication> {
  const express = createExpress();
  // A path the app does not spell exactly is a 404: no guard ever has to think about `/API/` or `/Api/`.
  // Set before anything touches the app's router, which reads the setting when it is made.
  express.set('case sensitive routing', true);
  const app = await NestFactory.create<NestExpressApplication>(
    GatewayModule,
    new GatewayHttpAdapter(express, {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      requestTimeout: config.REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: 1000,
    }),
    {
      logger: createLogger('gateway', config),
      // The body parsers are registered below, in order with the guards: JSON on every route (keeping the
      // raw bytes Stripe signs, `rawBody`), a form body only on the local checkout pages. By default Nest
      // would parse forms on every route.
      bodyParser: false,
      rawBody: true,
    },
  );
  startProcessMetrics('gateway');
  const server = app.getHttpServer() as Server;
  // Longer than a proxy keeps an idle connection to us (ingress-nginx: 60 s), so the proxy is the side that
  // closes it. At Node's default 5 s, a request the proxy sends on a connection just as we close it is
  // reset, and answered 502. (A shutdown still closes idle connections at once: server.close does.)
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // First, so requests refused by the guards below are logged and counted too.
  app.use(requestTracking(config));
  app.use(securityHeaders(config));
  app.use(apiAnswersNoStore());
  // Before any body is parsed: a state change from another origin, or not in JSON, goes no further.
  app.use(requestOriginGuard(config));
  // Above the largest valid body, so oversized fields are refused by validation with a message (400).
  app.useBodyParser('json', { limit: '2mb' });
  app.use(bodyGuard());
  app.use(formBodyOnFormPosts());
  app.use(cookieParser());
  app.setGlobalPrefix('api/v1');
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // API answers are not cached by validators; hashing every body for an ETag was a cost on each request.
  // (The web app's files keep theirs: express.static sets its own.)
  app.set('etag', false);
  app.enableShutdownHooks();

  if (config.apiDocs) {
    SwaggerModule.setup('api/docs', app, () => buildApiDocument(app));
  }

  // Before init, so the app's files are found ahead of Nest's 404 handler; API paths pass through.
  serveWebApp(app.getHttpAdapter().getInstance(), config.WEB_DIST, planPreview(app.get(SERVICE_CLIENT)));
  await app.init();
  return app;
}
