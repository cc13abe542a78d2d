import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/**
 * What one request carries through a process: its id. The gateway starts it from `X-Request-Id` (or a new
 * UUID); the transport puts it in each request envelope; the service that handles the request runs the
 * handler inside it, so its logs, and the calls it makes in turn, carry the same id.
 */
export interface RequestContext {
  requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The id of the request this code runs for, if any. */
export const currentRequestId = (): string | undefined => requestContext.getStore()?.requestId;

/** A client's own request id is kept only when it is short and plain (it is logged and echoed back). */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,64}$/;

/**
 * A user id as logs show it: a short keyed hash, the same for the same user across processes and lines (so
 * an operator can follow one person) and not the id itself (which the logs must not spread).
 */
export function hashUserId(userId: string, key: string): string {
  return createHash('sha256').update(`${key}:${userId}`).digest('base64url').slice(0, 12);
}
