import { PlainButton } from '../components/plain-button';
import { useRoom } from './room-context';
import { useOnline } from './use-online';

const LABELS = {
  connected: 'Connected to Waiting Room events',
  connecting: 'Connecting to Waiting Room events…',
  retrying: 'Not connected to Waiting Room events. Reconnecting…',
  gaveUp: 'Not connected to Waiting Room events',
} as const;

/**
 * The room's live connection (SPEC §2), on the waiting, voting and results pages alike; after the last
 * reconnect attempt it offers to try again (it also does so by itself when the network or the tab returns).
 * A dot and a line of text in plain markup: it is on the phone's first paint of every room page.
 */
export function ConnectionStatus() {
  const { state, reconnect } = useRoom();
  const online = useOnline();
  const status = state.voting.sseStatus;
  return (
    <div className="fv-connection" data-testid="connection">
      <span className={`fv-dot fv-dot-${status}`} aria-hidden="true" />
      <span data-testid="connection-status">{LABELS[status]}</span>
      {status === 'gaveUp' && <PlainButton onClick={reconnect}>Reconnect</PlainButton>}
      {!online && (
        <strong className="fv-offline" role="status">
          You are offline. ForkVote will catch up as soon as your network is back.
        </strong>
      )}
    </div>
  );
}
