import { labelledChildren } from '@forkvote/platform';
import { httpDuration, httpRequests } from './gateway-metrics';

const counted = labelledChildren(httpRequests);
const timed = labelledChildren(httpDuration);

/**
 * Counts and times one finished request by method, route and status (called from the request's one close
 * listener, see request-tracking.ts). The route is the pattern that matched
 * (`/api/v1/waiting-room/events/:waitingRoomId`), never the raw path, so room codes and ids do not become
 * series of their own; the web app's files are `web`, any other path `unmatched`.
 */
export function recordRequest(method: string, route: string, status: number, seconds: number): void {
  // In the order of their labelNames: method, route, status.
  const labels = [method, route, String(status)];
  counted(...labels).inc();
  timed(...labels).observe(seconds);
}
