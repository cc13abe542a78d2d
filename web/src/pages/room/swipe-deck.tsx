import { DislikeOutlined, LikeOutlined } from '@ant-design/icons';
import { PLACES_PER_BATCH, type Place } from '@forkvote/contracts';
import { useRef, useState } from 'react';
import type { PointerEvent as ReactPointerEvent, TouchEvent as ReactTouchEvent } from 'react';
import { PlainButton } from '../../components/plain-button';
import type { Choice } from '../../room/ballot-store';
import { BallotPlace } from '../../components/place-facts';

/** How far (px) a card must travel sideways to count as a swipe. */
const SWIPE_PX = 80;
/** How long a swiped card takes to fly off. */
const FLY_MS = 180;

/**
 * The batch as a stack of cards for a touch screen: swipe right for yes, left for no, or press the Yes and
 * No buttons under the card (screen readers and keyboards use those; the Y and N keys work too). The top
 * card is the first place without a choice; Undo, on the page, takes the last choice back.
 */
export function SwipeDeck({
  batch,
  choices,
  onChoose,
}: {
  batch: Place[];
  choices: Record<string, Choice>;
  onChoose: (index: number, choice: Choice) => void;
}) {
  const index = batch.findIndex((p) => !choices[p.id]);
  const [dx, setDx] = useState(0);
  const [flying, setFlying] = useState<Choice | null>(null);
  const start = useRef<{ x: number; y: number; id: number | 'touch' } | null>(null);
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;

  if (index < 0) return null;
  const place = batch[index];
  const name = place.displayName.text;

  const decide = (choice: Choice) => {
    if (flying) return;
    start.current = null;
    if (reduced) {
      setDx(0);
      onChoose(index, choice);
      return;
    }
    setFlying(choice);
    setTimeout(() => {
      setFlying(null);
      setDx(0);
      onChoose(index, choice);
    }, FLY_MS);
  };
  const release = () => {
    if (!start.current) return;
    start.current = null;
    if (Math.abs(dx) >= SWIPE_PX) decide(dx > 0 ? 'up' : 'down');
    else setDx(0);
  };
  const begin = (x: number, y: number, id: number | 'touch') => {
    if (!flying) start.current = { x, y, id };
  };
  const move = (x: number, y: number) => {
    const s = start.current;
    if (!s) return;
    // A mostly vertical move is a scroll, not a swipe.
    if (Math.abs(y - s.y) > Math.abs(x - s.x) && Math.abs(x - s.x) < 12) return;
    setDx(x - s.x);
  };

  const touch = (event: ReactTouchEvent) => event.touches[0] ?? event.changedTouches[0];
  const handlers = {
    onTouchStart: (event: ReactTouchEvent) => begin(touch(event).clientX, touch(event).clientY, 'touch'),
    onTouchMove: (event: ReactTouchEvent) => move(touch(event).clientX, touch(event).clientY),
    onTouchEnd: release,
    onTouchCancel: () => {
      start.current = null;
      setDx(0);
    },
    // A mouse or pen drags the card as a finger does (touch has its own events above).
    onPointerDown: (event: ReactPointerEvent) => {
      if (event.pointerType === 'touch' || event.button !== 0) return;
      if ((event.target as HTMLElement).closest('a, button')) return;
      event.currentTarget.setPointerCapture(event.pointerId);
      begin(event.clientX, event.clientY, event.pointerId);
    },
    onPointerMove: (event: ReactPointerEvent) => {
      if (event.pointerType !== 'touch') move(event.clientX, event.clientY);
    },
    onPointerUp: (event: ReactPointerEvent) => {
      if (event.pointerType !== 'touch') release();
    },
  };

  const offset = flying ? (flying === 'up' ? 1 : -1) * window.innerWidth : dx;
  const hint = dx >= SWIPE_PX / 2 ? 'up' : dx <= -SWIPE_PX / 2 ? 'down' : null;
  return (
    <div className="fv-deck" data-testid="swipe-deck">
      <p className="fv-muted fv-deck-count" aria-live="polite">
        Place {index + 1} of {PLACES_PER_BATCH}
      </p>
      <div className="fv-deck-stack">
        {batch[index + 1] && <div className="fv-deck-under fv-light-card" aria-hidden="true" />}
        <article
          className={`fv-place fv-light-card fv-deck-card${hint ? ` fv-place-${hint}` : ''}`}
          data-testid="swipe-card"
          aria-label={`Place ${index + 1} of ${PLACES_PER_BATCH}: ${name}`}
          style={{
            transform: offset ? `translateX(${offset}px) rotate(${offset / 24}deg)` : undefined,
            transition: reduced || start.current ? 'none' : `transform ${FLY_MS}ms ease-out`,
          }}
          {...handlers}
        >
          {hint && (
            <span className={`fv-deck-stamp fv-deck-stamp-${hint}`} aria-hidden="true">
              {hint === 'up' ? 'Yes' : 'No'}
            </span>
          )}
          <BallotPlace place={place} first />
        </article>
      </div>
      <div className="fv-deck-buttons">
        <PlainButton
          size="large"
          icon={<DislikeOutlined />}
          onClick={() => decide('down')}
          aria-label={`No to ${name}`}
        >
          No
        </PlainButton>
        <PlainButton
          size="large"
          type="primary"
          icon={<LikeOutlined />}
          onClick={() => decide('up')}
          aria-label={`Yes to ${name}`}
        >
          Yes
        </PlainButton>
      </div>
      <p className="fv-muted fv-deck-hint">Swipe right for yes, left for no.</p>
    </div>
  );
}
