import { CheckCircleFilled, EnvironmentOutlined, TrophyFilled } from '@ant-design/icons';
import {
  closestToUnanimous,
  DECISION_MESSAGES,
  drawCandidates,
  headlineFor,
  holdoutQuestions,
  ROOM_MESSAGES,
  type Ballot,
  type BallotsResult,
} from '@forkvote/contracts';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { PlaceFacts } from '../../components/place-facts';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import { ConnectionStatus } from '../../room/connection-status';
import { HoldoutPanel, PickButton, PickReveal, RuleLine, SharePlan } from '../../room/decision-parts';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { SaveGroupForm } from '../../room/saved-groups';
import { useRoomNavigation } from './use-room-navigation';

/*
 * The results page is plain markup and loads no antd: the whole guest journey (join, waiting room, voting,
 * results) stays light on a phone. Its dialogs (antd's Modal) load when they open.
 */
const NoRoomDialog = lazy(async () => ({ default: (await import('./no-room-dialog')).NoRoomDialog }));
const ConfirmDialog = lazy(async () => ({
  default: (await import('../../components/dialogs/dialogs')).ScopedConfirmDialog,
}));

function WinnerCard({
  ballot,
  voters,
  agreed = false,
  share = false,
}: {
  ballot: Ballot;
  voters: number;
  agreed?: boolean;
  share?: boolean;
}) {
  return (
    <article className="fv-light-card fv-light-card-body fv-winner fv-stack" data-testid="winner-card">
      <div className="fv-winner-name">
        <TrophyFilled className="fv-trophy" />
        <h3 className="fv-place-name">{ballot.place.displayName.text}</h3>
      </div>
      {agreed && (
        <span className="fv-tag fv-tag-brand fv-agreed" data-testid="agreed">
          {DECISION_MESSAGES.agreedAfterHoldout}
        </span>
      )}
      <span className="fv-muted">{ballot.place.shortFormattedAddress || ballot.place.formattedAddress}</span>
      <PlaceFacts place={ballot.place} />
      <span>
        <CheckCircleFilled className="fv-ok" /> {ballot.upVotes} of {voters} votes · {ballot.approval}%
        approval
      </span>
      <a className="fv-maps-link" href={ballot.place.googleMapsUri} target="_blank" rel="noreferrer">
        <EnvironmentOutlined /> Open in maps
      </a>
      {share && <SharePlan ballot={ballot} />}
    </article>
  );
}

/**
 * With no unanimous winner: the places that came closest, ranked, set apart from winners (no trophy, its
 * own heading) so nobody mistakes them for a decision everyone made.
 */
function ClosestToUnanimous({ result }: { result: BallotsResult }) {
  const closest = closestToUnanimous(result);
  if (closest.length === 0) return null;
  return (
    <section className="fv-closest" aria-labelledby="closest-title" data-testid="closest">
      <h2 id="closest-title">Closest to unanimous</h2>
      <p className="fv-muted">Nobody agreed on everything. These came nearest:</p>
      <ol className="fv-closest-list">
        {closest.map((ballot, index) => (
          <li key={ballot.placeId} className="fv-light-card">
            <span className="fv-rank" aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <strong>{ballot.place.displayName.text}</strong>
              <div className="fv-muted">
                {ballot.upVotes} of {result.voterCount} said yes · {ballot.approval}% approval
              </div>
              <PlaceFacts place={ballot.place} />
              <a className="fv-maps-link" href={ballot.place.googleMapsUri} target="_blank" rel="noreferrer">
                <EnvironmentOutlined /> Open in maps
              </a>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ResultsPage() {
  const { state, nextBatch, leave } = useRoom();
  const navigate = useNavigate();
  useRoomNavigation('/results');
  const [details, setDetails] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  // The dialog's code is fetched on the first 'Close Session', then kept, so it closes as dialogs do.
  const [confirmLoaded, setConfirmLoaded] = useState(false);
  if (confirmClose && !confirmLoaded) setConfirmLoaded(true);
  if (!state.room.waitingRoom)
    return (
      <Suspense fallback={null}>
        <NoRoomDialog within="session" />
      </Suspense>
    );
  const result = state.voting.ballots;
  const winners = result ? result.ballots.filter((b) => result.winners.includes(b.placeId)) : [];
  const rule = result?.decisionRule ?? state.room.waitingRoom.decisionRule;
  const { holdout, pick } = state.voting;
  const holdoutRunning = holdout !== null && !holdout.ended;
  const canDraw =
    state.room.isHost && result !== null && !pick && !holdoutRunning && drawCandidates(result).length > 0;
  const withVotes = result?.ballots.filter((b) => b.upVotes + b.downVotes > 0) ?? [];
  const withoutVotes = result?.ballots.filter((b) => b.upVotes + b.downVotes === 0) ?? [];

  // SPEC §4: with no places left the host leaves (which closes the room for everyone), then sees the dialog.
  const more = async () => {
    if ((await nextBatch()) === 'none') {
      await leaveAndGoHome(navigate, leave, { title: 'No more places', message: ROOM_MESSAGES.noMorePlaces });
    }
  };

  return (
    <div className="fv-page">
      <h1 className="fv-page-title">Results</h1>
      <ConnectionStatus />
      {state.voting.error && (
        <PlainAlert type="error" message={`Error: ${state.voting.error}`} className="fv-form-alert" />
      )}
      <RuleLine rule={rule} />
      <h2 className="fv-section-title" data-testid="results-headline">
        {headlineFor(winners.length, rule)}
      </h2>
      {result && (
        <PickReveal ballots={result.ballots}>
          {(ballot) => <WinnerCard ballot={ballot} voters={result.voterCount} share />}
        </PickReveal>
      )}
      {winners.length > 0 && (
        <div className="fv-columns fv-columns-2">
          {winners.map((ballot) => (
            <WinnerCard
              key={ballot.placeId}
              ballot={ballot}
              voters={result!.voterCount}
              agreed={result!.agreed?.includes(ballot.placeId)}
              share={!pick}
            />
          ))}
        </div>
      )}
      {result && winners.length === 0 && <ClosestToUnanimous result={result} />}
      {result && winners.length === 0 && (
        <HoldoutPanel canAsk={!pick && holdoutQuestions(result).length > 0} ballots={result.ballots} />
      )}
      {canDraw && <PickButton />}
      {state.room.isHost && winners.length === 0 && (
        <PlainButton
          type="primary"
          size="large"
          className="fv-more"
          onClick={more}
          loading={state.voting.isLoading}
        >
          Click here to vote on more restaurants
        </PlainButton>
      )}
      {state.room.error && (
        <PlainAlert type="error" message={state.room.error} className="fv-form-alert" role="alert" />
      )}
      <SaveGroupForm />
      <PlainButton
        type="danger"
        className="fv-more"
        // The host's leave closes the room for everyone: asked first, as 'Close Waiting Room' is.
        onClick={() => (state.room.isHost ? setConfirmClose(true) : leaveAndGoHome(navigate, leave))}
        loading={state.room.isLoading}
      >
        {state.room.isHost ? 'Close Session' : 'Leave Session'}
      </PlainButton>
      {confirmLoaded && (
        <Suspense fallback={null}>
          <ConfirmDialog
            open={confirmClose}
            title="Close the session?"
            message="Everyone in the session will be sent back to the home page."
            continueLabel="Close Session"
            onResult={async (go) => {
              setConfirmClose(false);
              if (go) await leaveAndGoHome(navigate, leave);
            }}
          />
        </Suspense>
      )}
      <label className="fv-details-toggle">
        <input
          type="checkbox"
          role="switch"
          className="fv-switch"
          checked={details}
          onChange={(event) => setDetails(event.target.checked)}
        />
        Show voting details
      </label>
      {details && result && (
        <ul className="fv-details">
          {[...withVotes, ...withoutVotes].map((ballot) => (
            <li key={ballot.placeId}>
              <strong>{ballot.place.displayName.text}</strong>
              <span className="fv-muted">
                {ballot.upVotes} yes · {ballot.downVotes} no · {ballot.approval}% approval
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
