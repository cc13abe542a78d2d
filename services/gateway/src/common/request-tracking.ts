import { hashUserId, REQUEST_ID_PATTERN, requestContext, rootLogger, Span, trace } from '@forkvote/platform';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { GatewayConfig } from '../gateway.config';
import { recordRequest } from './http-metrics';

/** What the router (Express 5's `router`) keeps of each route. */
type RouterLayer = {
  route?: { path: string; _handlesMethod(method: string): boolean };
  match(path: string): unknown;
};

/**
 * The route pattern that matched (`/api/v1/waiting-room/events/:waitingRoomId`); `web` for the web app's
 * paths; `unmatched` for an API path no route takes. A request refused before routing (the origin check,
 * the rate limits) is counted under the route it was going to: the router's routes are asked which one
 * matches, without running it.
 */
export function routeOf(req: Request): string {
  if (req.route?.path) return `${req.baseUrl}${String(req.route.path)}`;
  if (!/^\/api\//i.test(req.path)) return 'web';
  const stack = (req.app as unknown as { router?: { stack: RouterLayer[] } }).router?.stack ?? [];
  for (const layer of stack) {
    if (layer.route && matches(layer, req.path) && layer.route._handlesMethod(req.method))
      return layer.route.path;
  }
  return 'unmatched';
}

/**
 * Whether a route's pattern takes the path. The router decodes parameters as it matches, and throws on
 * one that is not valid percent-encoding (`/api/v1/plans/%ZZ`): the router answered that request 400
 * already, and here, after the response, it is simply no match (a throw would end the process).
 */
function matches(layer: RouterLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    return false;
  }
}

/**
 * The listener that writes a request's access line (with the ids of the request's trace, when tracing is
 * on) and counts it in the metrics when the response closes: one listener per request (an event stream keeps it for as long as it is open). Built
 * here, apart from the middleware, so that it holds only what it uses: a closure made inside the middleware
 * would share its scope with Express's `next`, and through it the request's whole trip through the router,
 * for as long as the response lives (hours, for an event stream).
 */
function accessLine(
  req: Request & { id?: string },
  res: Response,
  started: number,
  span: Span | null,
  { logger, userKey }: { logger: ReturnType<typeof rootLogger>; userKey: string },
): () => void {
  return () => {
    const route = routeOf(req);
    const status = res.statusCode;
    const elapsed = performance.now() - started;
    recordRequest(req.method, route, status, elapsed / 1000);
    const user = req.user as { sub?: string } | undefined;
    // Written after the response, outside the request's context: its trace ids are added here.
    const ids = span?.spanContext();
    const line = {
      ...(ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {}),
      reqId: req.id,
      req: { method: req.method, path: req.originalUrl.split('?')[0] },
      res: { status },
      route,
      ...(user?.sub ? { userHash: hashUserId(user.sub, userKey) } : {}),
      durationMs: Math.round(elapsed),
    };
    if (status >= 500) logger.error(line, 'request');
    else logger.info(line, 'request');
    // A guard's refusal never reaches a route handler: the span is named by its route all the same.
    if (span?.isRecording()) {
      span.updateName(`${req.method} ${route}`);
      span.setAttribute('http.route', route);
    }
  };
}

/**
 * Every request gets an id (the client's `X-Request-Id` when it is plain and short, else a new UUID),
 * answered back as `X-Request-Id`, carried by every service call it causes, and on every log line written
 * for it. One access line per request: method, path (no query string), route, status, duration, the id,
 * and a keyed hash of the signed-in user's id (never the id, a cookie or a header). When tracing is on,
 * the HTTP instrumentation's server span (W3C `traceparent` honoured) covers the request.
 *
 * Every request is also counted and timed in the metrics (refused ones too: this middleware runs first).
 *
 * One middleware and one listener per request, written out rather than pino-http: profiling the gateway
 * under load showed pino-http's per-request child logger and its listeners among the largest costs of a
 * proxied call, and the access line is all it was used for.
 */
export function requestTracking(config: GatewayConfig): RequestHandler {
  const userKey = createHash('sha256').update(`log-user-hash:${config.JWT_SECRET}`).digest('hex');
  const logger = rootLogger('gateway', config);
  const log = { logger, userKey };
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    (req as Request & { id: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    res.on('close', accessLine(req, res, started, trace.getActiveSpan() ?? null, log));
    requestContext.run({ requestId: id }, next);
  };
}
