import { Alert } from 'antd';
import { useSystemHealth } from '../api/health';

/** What a person can do without, named in words they know. */
const PARTS: Record<string, string> = {
  auth: 'accounts and sign-in',
  rooms: 'sessions and voting',
  billing: 'plans and payments',
  places: 'place search',
  database: 'saving changes',
  redis: 'live updates',
};

/**
 * A banner only while part of ForkVote is not answering, saying which part; nothing at all when every part
 * is up. (Per-service latencies are for operators: /api/v1/health and the metrics have them.)
 */
export function SystemStatusBanner() {
  const { data } = useSystemHealth();
  if (!data || data.status === 'ok') return null;
  const down = [
    ...data.services.filter((s) => s.status !== 'up').map((s) => s.service),
    ...(data.gateway.database.status !== 'up' ? ['database'] : []),
    ...(data.gateway.redis.status !== 'up' ? ['redis'] : []),
  ].map((part) => PARTS[part] ?? part);
  return (
    <Alert
      banner
      type="warning"
      role="status"
      data-testid="system-status"
      message={`Some of ForkVote is not answering right now${down.length ? `: ${down.join(', ')}` : ''}.`}
      description="It usually comes back within a minute; this page carries on by itself when it does."
    />
  );
}
