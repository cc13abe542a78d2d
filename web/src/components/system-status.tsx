import { PlainAlert } from './plain-alert';
import { useSystemHealth } from '../api/health';

/**
 * A banner only while part of ForkVote is not answering, saying which part in the words the health answer
 * gives; nothing at all when every part is up.
 */
export function SystemStatusBanner() {
  const { data } = useSystemHealth();
  if (!data || data.status === 'ok') return null;
  const down = data.parts.filter((p) => p.status !== 'up').map((p) => p.label);
  return (
    <PlainAlert
      banner
      type="warning"
      role="status"
      data-testid="system-status"
      message={`Some of ForkVote is not answering right now${down.length ? `: ${down.join(', ')}` : ''}.`}
      description="It usually comes back within a minute; this page carries on by itself when it does."
    />
  );
}
