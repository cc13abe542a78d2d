/** An error answer from the API: the HTTP status and the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** Every call goes to the same origin with cookies; the gateway answers JSON. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(path, {
    credentials: 'include',
    ...init,
    headers: {
      Accept: 'application/json',
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      ...init.headers,
    },
  });
  const text = await response.text();
  const body: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const message = (body as { message?: string } | undefined)?.message ?? response.statusText;
    throw new ApiError(response.status, message, body);
  }
  return body as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The SWR fetcher: the key is the API path. */
export const swrFetcher = <T>(path: string) => apiFetch<T>(path);

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

/** A call the server never answered itself: no answer at all (network, timeout) or a proxy's 502 / 504. */
export const isUnanswered = (err: unknown) =>
  !(err instanceof ApiError) || err.status === 502 || err.status === 503 || err.status === 504;

/**
 * A room command (create, join, leave, start, vote, next batch) sent with an Idempotency-Key, and sent again
 * with the same key while the server answers 503 or cannot be reached: the server answers a repeat with
 * its first answer, so a ballot that went through before the connection dropped is not refused as a second.
 */
export async function apiCommand<T>(path: string, init: RequestInit): Promise<T> {
  const key = newIdempotencyKey();
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiOnce<T>(path, init, key, null);
    } catch (err) {
      const transient = !(err instanceof ApiError) || err.status === 503;
      if (!transient || attempt >= RETRY_DELAYS_MS.length) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
    }
  }
}

/** A ballot's answer that has not come in this long is not coming: it is given up, to be sent again. */
export const BALLOT_TIMEOUT_MS = 12_000;

/** One attempt of a command under `key`, given up after `timeoutMs` without an answer (null: never). */
export function apiOnce<T>(
  path: string,
  init: RequestInit,
  key: string,
  timeoutMs: number | null,
): Promise<T> {
  return apiFetch<T>(path, {
    ...init,
    ...(timeoutMs === null ? {} : { signal: AbortSignal.timeout(timeoutMs) }),
    headers: { ...(init.headers as Record<string, string>), 'Idempotency-Key': key },
  });
}

/** A random UUID v4; crypto.randomUUID exists only in secure contexts, so plain http gets the fallback. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
