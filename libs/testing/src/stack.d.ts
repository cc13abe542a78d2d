import type { ChildProcess } from 'node:child_process';

/** A running stack of every process, as the launcher returns it. */
export interface RunningStack {
  url: string;
  port: number;
  children: Map<string, ChildProcess>;
  databaseUrl: string;
  redisPrefix: string;
  /** Resolves when /api/v1/health answers 200; rejects after `timeoutMs`. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  stopOne(name: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts `name` (a service or the gateway); `as` names another replica, with its own env overrides. */
  startOne(name: string, as?: string, overrides?: Record<string, string>): ChildProcess;
  /** Stops every process, then drops the stack's database and Redis keys. */
  stop(): Promise<void>;
}

export function startTestStack(options?: {
  env?: Record<string, string>;
  /** Variables for one process only, by its name (`rooms`, `gateway`): a port of its own, say. */
  processEnv?: Record<string, Record<string, string>>;
  output?: (line: string) => void;
  services?: string[];
}): Promise<RunningStack>;
export function startRedisServer(port: number): Promise<ChildProcess>;
/** A Redis Cluster of three masters on free ports; `url` is their URLs, comma-separated. */
export function startRedisCluster(
  masters?: number,
): Promise<{ url: string; ports: number[]; children: ChildProcess[]; stop(): Promise<void> }>;
export function freePort(): Promise<number>;
export function ensureDatabase(url: string): Promise<void>;
export function dropDatabase(url: string): Promise<void>;
export function dropRedisPrefix(redisUrl: string, prefix: string): Promise<void>;
