import { DislikeOutlined, LikeOutlined, UndoOutlined } from '@ant-design/icons';
import { batchOf, leftOutText, PLACES_PER_BATCH, type Place } from '@forkvote/contracts';
import { lazy, memo, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent as ReactKeyboardEvent, ReactNode } from 'react';
import { BallotPlace, DemoPlacesNotice } from '../../components/place-facts';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import { StatusTag } from '../../components/status-tag';
import { ConnectionStatus } from '../../room/connection-status';
import { RuleLine } from '../../room/decision-parts';
import { readBallot, keepBallot, type Choice } from '../../room/ballot-store';
import { useRoom } from '../../room/room-context';
import { useRoomNavigation } from './use-room-navigation';
import { SwipeDeck } from './swipe-deck';
import { useMediaQuery } from '../../app/use-media-query';

/*
 * The voting page is plain markup and loads no antd: a guest reaches it on a phone, and five antd cards with
 * radio groups and tags cost half a second of a slow phone's main thread at first render.
 */

// The "Oops!" dialog (antd's Modal) is fetched only for someone whose room is gone.
const NoRoomDialog = lazy(async () => ({ default: (await import('./no-room-dialog')).NoRoomDialog }));

/**
 * One place of the batch, with Yes and No as a real radio group (arrow keys move between the two). The card
 * itself takes focus: there, Y and N choose and the arrow keys move to the next or previous card. It renders
 * again only when its place or choice changes (its handlers are stable), not on every event of the room.
 */
const PlaceCard = memo(function PlaceCard({
  place,
  index,
  choice,
  onChoose,
  cardRef,
  onCardKey,
}: {
  place: Place;
  index: number;
  choice?: Choice;
  onChoose: (index: number, c: Choice) => void;
  cardRef: (index: number, element: HTMLElement | null) => void;
  onCardKey: (index: number, event: ReactKeyboardEvent<HTMLElement>) => void;
}) {
  const position = index + 1;
  const name = place.displayName.text;
  const option = (value: 'up' | 'down', label: string, icon: ReactNode) => (
    <label className={`fv-choice${choice === value ? ` fv-choice-${value}` : ''}`}>
      <input
        type="radio"
        name={`vote-${place.id}`}
        value={value}
        checked={choice === value}
        onChange={() => onChoose(index, value)}
      />
      {icon} {label}
    </label>
  );
  return (
    <article
      className={`fv-place fv-light-card${choice ? ` fv-place-${choice}` : ''}`}
      data-testid="place-card"
      tabIndex={0}
      ref={(element) => cardRef(index, element)}
      onKeyDown={(event) => onCardKey(index, event)}
      aria-label={`Place ${position} of ${PLACES_PER_BATCH}: ${name}${choice ? `, ${choice === 'up' ? 'yes' : 'no'}` : ''}`}
    >
      <BallotPlace place={place} first={index === 0} />
      <div role="radiogroup" aria-label={`Vote on ${name}`} className="fv-choices">
        {option('up', 'Yes', <LikeOutlined />)}
        {option('down', 'No', <DislikeOutlined />)}
      </div>
    </article>
  );
});

const VIEW_KEY = 'forkvote:voting-view';
const readViewChoice = () => {
  try {
    return localStorage.getItem(VIEW_KEY) === 'cards';
  } catch {
    return false;
  }
};
const keepViewChoice = (cards: boolean) => {
  try {
    localStorage.setItem(VIEW_KEY, cards ? 'cards' : 'list');
  } catch {
    // Not kept past a reload; the page still switches.
  }
};

/** Keys typed into a field are the field's, not shortcuts. */
const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) &&
  !(target instanceof HTMLInputElement && target.type === 'radio');

/** The host's reminder to those who have not voted, with what came of it. */
function NudgeButton() {
  const { nudge } = useRoom();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  return (
    <div className="fv-nudge">
      <PlainButton
        onClick={async () => {
          setBusy(true);
          setOutcome(await nudge());
          setBusy(false);
        }}
        loading={busy}
      >
        Nudge
      </PlainButton>
      <span role="status" className={outcome?.ok === false ? 'fv-nudge-refused' : 'fv-muted'}>
        {outcome?.message ?? 'Remind everyone still pending.'}
      </span>
    </div>
  );
}

export function VotingPage() {
  const { state, vote, dispatch } = useRoom();
  useRoomNavigation('/voting');
  const roomId = state.room.waitingRoom?.waitingRoomId ?? '';
  const { batchIndex, sending } = state.voting;
  // The choices made on this batch so far, kept on the device: a reload mid-vote keeps them.
  const [choices, setChoices] = useState<Record<string, Choice>>(
    () => readBallot(roomId, batchIndex).choices,
  );
  const [announcement, setAnnouncement] = useState('');
  // The places chosen, in the order they were chosen: Undo takes back the last.
  const [history, setHistory] = useState<string[]>([]);
  // On a touch screen the batch can also be voted as a stack of cards to swipe (SPEC §2's list of five
  // stays the default); the choice is kept on the device.
  const touch = useMediaQuery('(pointer: coarse)');
  const [cardsChosen, setCardsChosen] = useState(() => readViewChoice());
  const asCards = touch && cardsChosen;
  const cards = useRef<(HTMLElement | null)[]>([]);
  const batch = batchOf(state.voting.places, batchIndex);
  const shown = useRef({ roomId, batchIndex });
  useEffect(() => {
    if (shown.current.roomId === roomId && shown.current.batchIndex === batchIndex) return;
    shown.current = { roomId, batchIndex };
    setChoices(readBallot(roomId, batchIndex).choices);
    setHistory([]);
    setAnnouncement('');
  }, [roomId, batchIndex]);

  const complete = batch.length > 0 && batch.every((p) => choices[p.id]);
  const chosenCount = batch.filter((p) => choices[p.id]).length;
  const submit = () => vote(batch.map((p) => ({ placeId: p.id, voteType: choices[p.id] })));
  const canSubmit = complete && !state.voting.isLoading && !sending && !state.voting.voted;

  const choose = (index: number, choice: Choice) => {
    if (sending) return;
    const place = batch[index];
    const next = { ...choices, [place.id]: choice };
    setChoices(next);
    setHistory((h) => [...h.filter((id) => id !== place.id), place.id]);
    keepBallot(roomId, batchIndex, { choices: next });
    const count = batch.filter((p) => next[p.id]).length;
    setAnnouncement(
      `${choice === 'up' ? 'Yes' : 'No'} for ${place.displayName.text}. ${count} of ${batch.length} chosen.` +
        (count === batch.length ? ' Press Enter to submit.' : ''),
    );
  };
  const undo = () => {
    const last = history.at(-1);
    if (!last || sending || state.voting.voted) return;
    const { [last]: undone, ...rest } = choices;
    setChoices(rest);
    setHistory(history.slice(0, -1));
    keepBallot(roomId, batchIndex, { choices: rest });
    const place = batch.find((p) => p.id === last);
    if (undone && place)
      setAnnouncement(`Took back ${undone === 'up' ? 'yes' : 'no'} for ${place.displayName.text}.`);
  };
  const focusCard = (index: number) => cards.current[(index + batch.length) % batch.length]?.focus();

  /** On a card: Y / N choose it and move on; the arrow keys move between cards. */
  const onCardKey = (index: number, event: ReactKeyboardEvent<HTMLElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    const key = event.key.toLowerCase();
    const onCard = event.target === event.currentTarget;
    if (key === 'y' || key === 'n') {
      event.preventDefault();
      choose(index, key === 'y' ? 'up' : 'down');
      if (index < batch.length - 1) focusCard(index + 1);
    } else if (onCard && (key === 'arrowright' || key === 'arrowdown')) {
      event.preventDefault();
      focusCard(index + 1);
    } else if (onCard && (key === 'arrowleft' || key === 'arrowup')) {
      event.preventDefault();
      focusCard(index - 1);
    }
  };

  // The cards' handlers, stable across renders (each calls this render's), so a card renders only when its
  // own place or choice changes.
  const latest = useRef({ choose, onCardKey });
  latest.current = { choose, onCardKey };
  const onChooseCard = useCallback((index: number, c: Choice) => latest.current.choose(index, c), []);
  const onCardKeyDown = useCallback(
    (index: number, event: ReactKeyboardEvent<HTMLElement>) => latest.current.onCardKey(index, event),
    [],
  );
  const cardRef = useCallback((index: number, element: HTMLElement | null) => {
    cards.current[index] = element;
  }, []);

  // In the card stack, Y and N choose the top card (as they do on a focused card in the list).
  useEffect(() => {
    if (!asCards) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const key = event.key.toLowerCase();
      const top = batch.findIndex((p) => !choices[p.id]);
      if ((key !== 'y' && key !== 'n') || top < 0) return;
      event.preventDefault();
      choose(top, key === 'y' ? 'up' : 'down');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  // Enter anywhere on the page (but on a link, a button or a field) submits once all 5 are chosen.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.defaultPrevented || !canSubmit) return;
      const target = event.target as HTMLElement | null;
      if (isTyping(target) || target?.closest('a, button, [role="dialog"]')) return;
      event.preventDefault();
      void submit();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  if (!state.room.waitingRoom)
    return (
      <Suspense fallback={null}>
        <NoRoomDialog within="session" />
      </Suspense>
    );
  const users = state.room.waitingRoom.users;
  const pending = users.filter(
    (u) => !state.voting.usersVoted.includes(u.userId) && u.userId !== state.room.userId,
  );

  return (
    <div className="fv-page">
      <h1 className="fv-page-title">Time to Vote!</h1>
      <ConnectionStatus />
      <RuleLine rule={state.room.waitingRoom.decisionRule} />
      {state.room.isHost && state.voting.leftOutByLimits > 0 && (
        <p className="fv-muted fv-left-out" data-testid="left-out">
          {leftOutText(state.voting.leftOutByLimits)}
        </p>
      )}
      {state.voting.demo && <DemoPlacesNotice />}
      {state.voting.nudgedBy && !state.voting.voted && (
        <PlainAlert
          type="info"
          onClose={() => dispatch({ type: 'nudgeSeen' })}
          message={`${state.voting.nudgedBy} is waiting for your votes. No rush, just a friendly nudge!`}
          className="fv-form-alert fv-nudge-banner"
          role="status"
        />
      )}
      {state.voting.voted ? (
        <section className="fv-light-card fv-light-card-body">
          <PlainAlert
            type="success"
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
          {state.room.isHost && pending.length > 0 && <NudgeButton />}
        </section>
      ) : (
        <>
          <p className="fv-muted">
            Batch {state.voting.batchIndex + 1}: say yes to every place you would happily go to.
            <span className="fv-keys-hint">
              {' '}
              Keyboard: <kbd>Y</kbd> yes, <kbd>N</kbd> no, arrow keys move, <kbd>Enter</kbd> submits.
            </span>
          </p>
          {touch && (
            <PlainButton
              className="fv-view-toggle"
              onClick={() => {
                keepViewChoice(!asCards);
                setCardsChosen(!asCards);
              }}
            >
              {asCards ? 'Show as a list' : 'Swipe through them'}
            </PlainButton>
          )}
          {asCards ? (
            complete ? (
              <ul className="fv-light-card fv-light-card-body fv-deck-summary" data-testid="deck-summary">
                {batch.map((place) => (
                  <li key={place.id}>
                    <span>{place.displayName.text}</span>
                    <StatusTag up={choices[place.id] === 'up'}>
                      {choices[place.id] === 'up' ? 'Yes' : 'No'}
                    </StatusTag>
                  </li>
                ))}
              </ul>
            ) : (
              <SwipeDeck batch={batch} choices={choices} onChoose={onChooseCard} />
            )
          ) : (
            <div className="fv-place-grid">
              {batch.map((place, index) => (
                <PlaceCard
                  key={place.id}
                  place={place}
                  index={index}
                  choice={choices[place.id]}
                  onChoose={onChooseCard}
                  cardRef={cardRef}
                  onCardKey={onCardKeyDown}
                />
              ))}
            </div>
          )}
          <div className="fv-submit-row">
            <PlainButton
              type="primary"
              size="large"
              className="fv-submit-votes"
              disabled={!complete || sending}
              loading={state.voting.isLoading || sending}
              onClick={submit}
            >
              {sending ? 'Sending…' : 'Submit Votes'}
            </PlainButton>
            <PlainButton icon={<UndoOutlined />} onClick={undo} disabled={history.length === 0 || sending}>
              Undo
            </PlainButton>
            <span className="fv-muted" data-testid="chosen-count">
              {chosenCount} of {batch.length} chosen
            </span>
          </div>
          {sending && (
            <p className="fv-sending" role="status" data-testid="ballot-sending">
              Your votes are saved on this device and will be sent as soon as the connection is back.
            </p>
          )}
          <div className="fv-visually-hidden" aria-live="polite" data-testid="vote-announcer">
            {announcement}
          </div>
          {/* Beside Submit, where the person is looking when it fails, not at the top of a long page. */}
          {state.voting.error && (
            <PlainAlert
              type="error"
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
