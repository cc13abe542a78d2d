import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import createExpress from 'express';
import type { Server } from 'node:http';
import cookieParser from 'cookie-parser';
import { SwaggerModule } from '@nestjs/swagger';
import { createLogger, startProcessMetrics } from '@forkvote/platform';
import { bodyGuard } from './common/body-guard';
import { GatewayExpressAdapter } from './common/express-adapter';
import { jsonBody } from './common/json-body';
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

/** How long an idle kept-alive connection stays open. */
const KEEP_ALIVE_MS = 65_000;
/** 2 MiB, what body-parser reads as '2mb'. */
const JSON_BODY_LIMIT = 2 * 1024 * 1024;

/** Builds the gateway app (used by main.ts and by tests): /api/v1, docs at /api/docs, the web app at /. */
export async function createGateway(config: GatewayConfig): Promise<INestApplication> {
  const express = createExpress();
  // A path the app does not spell exactly is a 404: no guard ever has to think about `/API/` or `/Api/`.
  // Set before anything touches the app's router, which reads the setting when it is made.
  express.set('case sensitive routing', true);
  const app = await NestFactory.create<NestExpressApplication>(
    GatewayModule,
    new GatewayExpressAdapter(express, {
      headersTimeout: config.HEADERS_TIMEOUT_MS,
      requestTimeout: config.REQUEST_TIMEOUT_MS,
    }),
    {
      logger: createLogger('gateway', config),
      // The body parsers are ours (below): JSON on every route, keeping the raw bytes Stripe signs, and a form
      // body only on the local checkout pages. Nest's own would parse forms on every route.
      bodyParser: false,
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
  app.use(jsonBody({ limit: JSON_BODY_LIMIT }));
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
  serveWebApp(app.getHttpAdapter().getInstance(), config.WEB_DIST);
  await app.init();
  return app;
}
