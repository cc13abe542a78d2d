import {
  context,
  contextFrom,
  endSpan,
  hashUserId,
  REQUEST_ID_PATTERN,
  requestContext,
  rootLogger,
  SpanKind,
  trace,
  tracer,
} from '@forkvote/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { GatewayConfig } from '../gateway.config';

/** The route pattern that matched (`/api/v1/waiting-room/events/:waitingRoomId`); `web` or `unmatched` else. */
export function routeOf(req: Request): string {
  if (req.route?.path) return `${req.baseUrl}${String(req.route.path)}`;
  return req.path.startsWith('/api/') ? 'unmatched' : 'web';
}

/**
 * Every request gets an id (the client's `X-Request-Id` when it is plain and short, else a new UUID),
 * answered back as `X-Request-Id`, carried by every service call it causes, and on every log line written
 * for it. One access line per request: method, path (no query string), route, status, duration, the id,
 * and a keyed hash of the signed-in user's id (never the id, a cookie or a header). A server span (W3C
 * `traceparent` honoured) covers the request when tracing is on.
 */
export function requestTracking(config: GatewayConfig): RequestHandler[] {
  const userKey = createHash('sha256').update(`log-user-hash:${config.JWT_SECRET}`).digest('hex');
  const accessLog = pinoHttp<IncomingMessage, ServerResponse>({
    logger: rootLogger('gateway', config),
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customAttributeKeys: { reqId: 'reqId', responseTime: 'durationMs' },
    quietReqLogger: true,
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
    customProps: (req) => {
      const user = (req as Request).user as { sub?: string } | undefined;
      return {
        route: routeOf(req as Request),
        ...(user?.sub ? { userHash: hashUserId(user.sub, userKey) } : {}),
      };
    },
  });

  const inContext = (req: Request, res: Response, next: NextFunction): void => {
    const parent = contextFrom(req.headers);
    const span = tracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method, 'url.path': req.path } },
      parent,
    );
    res.once('close', () => {
      const route = routeOf(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      endSpan(span, res.statusCode >= 500);
    });
    requestContext.run({ requestId: String(req.id) }, () => context.with(trace.setSpan(parent, span), next));
  };

  return [accessLog as unknown as RequestHandler, inContext];
}
