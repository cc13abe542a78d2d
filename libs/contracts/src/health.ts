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
