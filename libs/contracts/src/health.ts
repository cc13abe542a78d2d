export type UpDown = 'up' | 'down';

export interface DependencyHealth {
  status: UpDown;
  latencyMs: number;
  error?: string;
}

/** What a service answers to its `<service>.health` request. */
export interface ServiceHealthReport {
  service: string;
  instance: string;
  database: DependencyHealth;
  redis: DependencyHealth;
  /** How the service runs where that matters to an operator, e.g. billing's 'test mode'. */
  mode?: string;
}

/** One service as the gateway sees it: the round trip over the transport plus the service's own report. */
export interface ServiceHealth {
  service: string;
  status: UpDown;
  latencyMs: number;
  instance?: string;
  database?: DependencyHealth;
  redis?: DependencyHealth;
  mode?: string;
  error?: string;
}

/** GET /api/v1/health */
export interface SystemHealth {
  status: 'ok' | 'unavailable';
  message: string;
  checkedAt: string;
  gateway: { database: DependencyHealth; redis: DependencyHealth };
  services: ServiceHealth[];
}

/** The parts of ForkVote a person can tell apart, in the words the public health answer uses. */
export const PUBLIC_HEALTH_PARTS = {
  accounts: 'accounts and sign-in',
  sessions: 'sessions and voting',
  payments: 'plans and payments',
  places: 'place search',
  saving: 'saving changes',
  live: 'live updates',
} as const;
export type PublicHealthPart = keyof typeof PUBLIC_HEALTH_PARTS;

/**
 * GET /api/v1/health, public: each part of the product up or degraded, in the product's words, and nothing
 * an operator alone needs (instances, latencies, error text, modes: those are on the metrics listener's
 * /health, as SystemHealth). 503 while any part is degraded.
 */
export interface PublicHealth {
  status: 'ok' | 'degraded';
  message: string;
  checkedAt: string;
  parts: { part: PublicHealthPart; label: string; status: 'up' | 'degraded' }[];
}
