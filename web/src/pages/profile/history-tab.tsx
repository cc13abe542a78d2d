import {
  DECISION_RULE_LABELS,
  DECISION_MESSAGES,
  sessionOutcome,
  type HistoryPage,
  type HistorySession,
} from '@forkvote/contracts';
import { useState } from 'react';
import useSWR from 'swr';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });

function SessionCard({ session }: { session: HistorySession }) {
  const outcome = sessionOutcome(session);
  const places = session.batches.flatMap((b) => b.places);
  const drawn = session.batches.some((b) => b.picked);
  return (
    <li
      className="fv-light-card fv-light-card-body fv-stack fv-history-session"
      data-testid="history-session"
    >
      <div className="fv-history-head">
        <h2 className="fv-history-date">{dateOf(session.startedAt)}</h2>
        <span className="fv-tag fv-tag-brand">{DECISION_RULE_LABELS[session.decisionRule]}</span>
      </div>
      <p className="fv-history-people">
        <span className="fv-muted">Who was there:</span> {session.people.join(', ')}
      </p>
      <p>
        <span className="fv-muted">{drawn ? `${DECISION_MESSAGES.pickedForYou}:` : 'Chosen:'}</span>{' '}
        {outcome.length > 0 ? (
          <strong data-testid="history-outcome">{outcome.map((p) => p.name).join(', ')}</strong>
        ) : (
          <span>No place won</span>
        )}
      </p>
      <details>
        <summary>Places voted on ({places.length})</summary>
        <ul className="fv-history-places">
          {places.map((p) => (
            <li key={`${p.id}`}>
              {p.name}{' '}
              <span className="fv-muted">
                · {p.address} · {p.upVotes} yes
              </span>
            </li>
          ))}
        </ul>
      </details>
    </li>
  );
}

/** The profile's History tab: the sessions the user took part in, newest first, a page at a time. */
export function HistoryTab() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useSWR<HistoryPage>(`/api/v1/me/history?page=${page}`);
  if (error)
    return (
      <PlainAlert type="error" role="alert" message="Your history could not be loaded. Please try again." />
    );
  if (isLoading || !data)
    return (
      <p className="fv-muted" aria-busy="true">
        Loading your sessions…
      </p>
    );
  if (data.sessions.length === 0 && page === 1)
    return <p className="fv-muted">No sessions yet. The places your groups vote on will show here.</p>;
  return (
    <section aria-label="Past sessions" className="fv-history">
      <ol className="fv-history-list">
        {data.sessions.map((session) => (
          <SessionCard key={`${session.waitingRoomId}-${session.startedAt}`} session={session} />
        ))}
      </ol>
      <div className="fv-history-pages">
        <PlainButton disabled={page === 1} onClick={() => setPage(page - 1)}>
          Newer
        </PlainButton>
        <span className="fv-muted">Page {page}</span>
        <PlainButton disabled={!data.hasMore} onClick={() => setPage(page + 1)}>
          Older
        </PlainButton>
      </div>
    </section>
  );
}
