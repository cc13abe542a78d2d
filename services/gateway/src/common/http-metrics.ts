import { labelledChildren } from '@forkvote/platform';
import { httpDuration, httpRequests } from './gateway-metrics';
import { routeOf } from './request-tracking';
import type { NextFunction, Request, Response } from 'express';

/**
 * Counts and times every request by method, route and status. The route is the pattern that matched
 * (`/api/v1/waiting-room/events/:waitingRoomId`), never the raw path, so room codes and ids do not become
 * series of their own; the web app's files are `web`, any other path `unmatched`.
 */
export function httpMetrics() {
  const counted = labelledChildren(httpRequests);
  const timed = labelledChildren(httpDuration);
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    res.on('close', () => {
      // In the order of their labelNames: method, route, status.
      const labels = [req.method, routeOf(req), String(res.statusCode)];
      counted(...labels).inc();
      timed(...labels).observe((performance.now() - started) / 1000);
    });
    next();
  };
}
