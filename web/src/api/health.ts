import type { PublicHealth } from '@forkvote/contracts';
import useSWR from 'swr';
import { ApiError, apiFetch } from './http';

/** GET /api/v1/health answers 503 with the same body when something is down; both are a report. */
async function fetchHealth(path: string): Promise<PublicHealth> {
  try {
    return await apiFetch<PublicHealth>(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 503 && err.body && typeof err.body === 'object') {
      return err.body as PublicHealth;
    }
    throw err;
  }
}

export function useSystemHealth() {
  // Once a minute is enough for a banner; while something is down, every 15 s, so it goes away promptly.
  return useSWR<PublicHealth>('/api/v1/health', fetchHealth, {
    refreshInterval: (latest) => (latest && latest.status !== 'ok' ? 15_000 : 60_000),
  });
}
