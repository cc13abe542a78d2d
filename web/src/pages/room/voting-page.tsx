import { DislikeOutlined, EnvironmentOutlined, LikeOutlined } from '@ant-design/icons';
import { batchOf, placeTypeLabel, type Place } from '@forkvote/contracts';
import { Alert, Button } from 'antd';
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { StatusTag } from '../../components/status-tag';
import { ConnectionStatus } from '../../room/connection-status';
import { useRoom } from '../../room/room-context';
import { NoRoomDialog } from './no-room-dialog';
import { useRoomNavigation } from './use-room-navigation';

/*
 * The voting page is plain markup with antd's Button and Alert only: a guest reaches it on a phone, and five
 * antd cards with radio groups and tags cost half a second of a slow phone's main thread at first render.
 */

const typeLabel = (place: Place) =>
  placeTypeLabel(
    place.primaryType ?? place.types.find((t) => t !== 'restaurant') ?? place.types[0] ?? 'restaurant',
  );

/** One place of the batch, with Yes and No as a real radio group (arrow keys move between the two). */
function PlaceCard({
  place,
  choice,
  onChoose,
}: {
  place: Place;
  choice?: 'up' | 'down';
  onChoose: (c: 'up' | 'down') => void;
}) {
  const name = place.displayName.text;
  const option = (value: 'up' | 'down', label: string, icon: ReactNode) => (
    <label className={`fv-choice${choice === value ? ` fv-choice-${value}` : ''}`}>
      <input
        type="radio"
        name={`vote-${place.id}`}
        value={value}
        checked={choice === value}
        onChange={() => onChoose(value)}
      />
      {icon} {label}
    </label>
  );
  return (
    <article
      className={`fv-place fv-light-card${choice ? ` fv-place-${choice}` : ''}`}
      data-testid="place-card"
    >
      <h2 className="fv-place-name">{name}</h2>
      <span className="fv-chip">{typeLabel(place)}</span>
      <p className="fv-muted fv-place-address">{place.shortFormattedAddress || place.formattedAddress}</p>
      <a href={place.googleMapsUri} target="_blank" rel="noreferrer">
        <EnvironmentOutlined /> Open in maps
      </a>
      <div role="radiogroup" aria-label={`Vote on ${name}`} className="fv-choices">
        {option('up', 'Yes', <LikeOutlined />)}
        {option('down', 'No', <DislikeOutlined />)}
      </div>
    </article>
  );
}

export function VotingPage() {
  const { state, vote } = useRoom();
  useRoomNavigation('/voting');
  const [choices, setChoices] = useState<Record<string, 'up' | 'down'>>({});
  const batch = batchOf(state.voting.places, state.voting.batchIndex);
  useEffect(() => setChoices({}), [state.voting.batchIndex]);
  if (!state.room.waitingRoom) return <NoRoomDialog within="session" />;

  const users = state.room.waitingRoom.users;
  const complete = batch.length > 0 && batch.every((p) => choices[p.id]);
  const submit = () => vote(batch.map((p) => ({ placeId: p.id, voteType: choices[p.id] })));

  return (
    <div className="fv-page">
      <h1 className="fv-page-title">Time to Vote!</h1>
      <ConnectionStatus />
      {state.voting.demo && (
        <Alert
          type="info"
          showIcon
          message="Demo places: no places provider is reachable, so these are made up."
          className="fv-form-alert"
        />
      )}
      {state.voting.voted ? (
        <section className="fv-light-card fv-light-card-body">
          <Alert
            type="success"
            showIcon
            message="Votes submitted successfully! Waiting for others to submit their votes."
          />
          <h2 className="fv-progress-title">Voting Progress</h2>
          <ul className="fv-progress-list">
            {users.map((user) => {
              const done = state.voting.usersVoted.includes(user.userId);
              return (
                <li key={user.userId}>
                  <span>{user.userName}</span>
                  <StatusTag up={done ? true : null}>{done ? 'Voted' : 'Pending'}</StatusTag>
                </li>
              );
            })}
          </ul>
        </section>
      ) : (
        <>
          <p className="fv-muted">
            Batch {state.voting.batchIndex + 1}: say yes to every place you would happily go to.
          </p>
          <div className="fv-place-grid">
            {batch.map((place) => (
              <PlaceCard
                key={place.id}
                place={place}
                choice={choices[place.id]}
                onChoose={(c) => setChoices({ ...choices, [place.id]: c })}
              />
            ))}
          </div>
          <Button
            type="primary"
            size="large"
            className="fv-submit-votes"
            disabled={!complete}
            loading={state.voting.isLoading}
            onClick={submit}
          >
            Submit Votes
          </Button>
          {/* Beside Submit, where the person is looking when it fails, not at the top of a long page. */}
          {state.voting.error && (
            <Alert
              type="error"
              showIcon
              message={`Error: ${state.voting.error}`}
              className="fv-vote-error"
              role="alert"
            />
          )}
        </>
      )}
    </div>
  );
}
