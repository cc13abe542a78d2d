/**
 * The parts of a room that decide beyond the SPEC's unanimous rule (docs/decisions.md): the rule, the
 * holdout round, the draw and the shared plan. Plain markup, as the room pages are.
 */
import {
  DECISION_MESSAGES,
  DECISION_RULE_HINTS,
  DECISION_RULE_LABELS,
  DECISION_RULES,
  DEFAULT_DECISION_RULE,
  FRESH_PICK_DAYS,
  holdoutPending,
  holdoutQuestionText,
  holdoutWaitingText,
  type Ballot,
  type DecisionRule,
} from '@forkvote/contracts';
import { useEffect, useState } from 'react';
import { CopyFeedback } from '../components/copy-feedback';
import { PlainAlert } from '../components/plain-alert';
import { PlainButton } from '../components/plain-button';
import { useRoom } from './room-context';
import { shareLink, useCopyLink } from './use-copy-invite';

/** The room's rule as everyone sees it; the host may change it until voting starts. */
export function DecisionRuleCard() {
  const { state, setRule, dispatch } = useRoom();
  const rule = state.room.waitingRoom?.decisionRule ?? DEFAULT_DECISION_RULE;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const editable = state.room.isHost && state.voting.currentState === 'waiting';
  const choose = async (next: DecisionRule) => {
    if (next === rule || busy) return;
    setBusy(true);
    setError(await setRule(next));
    setBusy(false);
  };
  return (
    <section className="fv-light-card fv-light-card-body fv-stack fv-rule-card" aria-labelledby="rule-title">
      <h2 id="rule-title" className="fv-decision-title">
        How the room decides
      </h2>
      {editable ? (
        <div role="radiogroup" aria-labelledby="rule-title" className="fv-rule-options">
          {DECISION_RULES.map((value) => (
            <label
              key={value}
              className={value === rule ? 'fv-rule-option fv-rule-option-checked' : 'fv-rule-option'}
            >
              <input
                type="radio"
                name="decision-rule"
                value={value}
                checked={value === rule}
                disabled={busy}
                onChange={() => void choose(value)}
              />
              <span>
                <strong>{DECISION_RULE_LABELS[value]}</strong>
                <span className="fv-muted">{DECISION_RULE_HINTS[value]}</span>
              </span>
            </label>
          ))}
        </div>
      ) : (
        <>
          <strong data-testid="decision-rule">{DECISION_RULE_LABELS[rule]}</strong>
          <span className="fv-muted">{DECISION_RULE_HINTS[rule]}</span>
        </>
      )}
      {editable && (
        <label className="fv-prefer-new">
          <input
            type="checkbox"
            role="switch"
            className="fv-switch"
            checked={state.room.preferNewPlaces}
            onChange={(event) => dispatch({ type: 'preferNewPlaces', value: event.target.checked })}
          />
          <span>
            Prefer new places
            <span className="fv-muted">
              {' '}
              · places you picked in the last {FRESH_PICK_DAYS} days come last
            </span>
          </span>
        </label>
      )}
      {error && <PlainAlert type="error" message={error} role="alert" />}
    </section>
  );
}

/** One line naming the room's rule, on the voting page and the results. */
export function RuleLine({ rule }: { rule: DecisionRule | undefined }) {
  const r = rule ?? DEFAULT_DECISION_RULE;
  return (
    <p className="fv-rule-line" data-testid="rule-line">
      <span className="fv-tag fv-tag-brand">{DECISION_RULE_LABELS[r]}</span>{' '}
      <span className="fv-muted">{DECISION_RULE_HINTS[r]}</span>
    </p>
  );
}

/**
 * The holdout round on the results page: the host's "Ask the holdouts" before it, each of my questions
 * while it runs, and who is still deciding for everyone else.
 */
export function HoldoutPanel({ canAsk, ballots }: { canAsk: boolean; ballots: Ballot[] }) {
  const { state, askHoldouts, answerHoldout } = useRoom();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const round = state.voting.holdout;
  const me = state.room.userId;
  const users = state.room.waitingRoom?.users ?? [];
  const present = new Set(users.map((u) => u.userId));

  if (!round) {
    if (!state.room.isHost || !canAsk) return null;
    return (
      <div className="fv-holdout fv-stack">
        <p className="fv-muted">Ask the people who said no whether they could live with these places.</p>
        <PlainButton
          type="primary"
          loading={busy === 'ask'}
          onClick={async () => {
            setBusy('ask');
            setError(await askHoldouts());
            setBusy(null);
          }}
        >
          {DECISION_MESSAGES.askHoldouts}
        </PlainButton>
        {error && <PlainAlert type="error" message={error} role="alert" />}
      </div>
    );
  }
  if (round.ended) {
    return round.agreed.length === 0 ? (
      <p className="fv-holdout fv-muted" role="status" data-testid="holdout-status">
        Nobody changed their mind this time.
      </p>
    ) : null;
  }
  const questions = round.questions.map((q) => ({
    ...q,
    userIds: q.userIds.filter((id) => present.has(id)),
  }));
  const pending = holdoutPending({ ...round, questions });
  const answered = new Set(round.answered.map((a) => `${a.placeId}\n${a.userId}`));
  const mine = questions.filter((q) => me && q.userIds.includes(me) && !answered.has(`${q.placeId}\n${me}`));
  const names = pending
    .map((id) => (id === me ? 'you' : users.find((u) => u.userId === id)?.userName))
    .filter(Boolean);
  const nameOf = (placeId: string) =>
    ballots.find((b) => b.placeId === placeId)?.place.displayName.text ?? placeId;
  return (
    <section className="fv-holdout fv-stack" aria-labelledby="holdout-title" data-testid="holdout">
      <h2 id="holdout-title" className="fv-decision-title">
        A second look
      </h2>
      {mine.map((q) => (
        <div key={q.placeId} className="fv-light-card fv-light-card-body fv-holdout-question">
          <p className="fv-holdout-text">{holdoutQuestionText(nameOf(q.placeId))}</p>
          <div className="fv-holdout-answers">
            {(['yes', 'no'] as const).map((answer) => (
              <PlainButton
                key={answer}
                type={answer === 'yes' ? 'primary' : 'default'}
                loading={busy === `${q.placeId}:${answer}`}
                disabled={busy !== null}
                onClick={async () => {
                  setBusy(`${q.placeId}:${answer}`);
                  setError(await answerHoldout(q.placeId, answer));
                  setBusy(null);
                }}
              >
                {answer === 'yes' ? 'Yes' : 'No'}
              </PlainButton>
            ))}
          </div>
        </div>
      ))}
      {pending.length > 0 && (
        <p className="fv-muted" role="status" data-testid="holdout-status">
          {holdoutWaitingText(pending.length)}
          {names.length > 0 && ` (${names.join(', ')})`}
        </p>
      )}
      {error && <PlainAlert type="error" message={error} role="alert" />}
    </section>
  );
}

/** How long the draw's reveal runs before it lands on the pick. */
export const REVEAL_MS = 1600;
const SHUFFLE_MS = 120;

/**
 * The drawn pick: when it was just drawn, a short reveal that cycles through the candidates and lands on the
 * pick (no animation for reduced motion); then the picked place.
 */
export function PickReveal({
  ballots,
  children,
}: {
  ballots: Ballot[];
  children: (ballot: Ballot) => React.ReactNode;
}) {
  const { state, dispatch } = useRoom();
  const pick = state.voting.pick;
  const [shown, setShown] = useState(0);
  const reduced =
    typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  const revealing = pick?.reveal && !reduced;
  useEffect(() => {
    if (!pick?.reveal) return;
    if (reduced) {
      dispatch({ type: 'pickRevealed' });
      return;
    }
    const tick = setInterval(() => setShown((n) => n + 1), SHUFFLE_MS);
    const done = setTimeout(() => dispatch({ type: 'pickRevealed' }), REVEAL_MS);
    return () => {
      clearInterval(tick);
      clearTimeout(done);
    };
  }, [pick?.reveal, reduced, dispatch]);
  if (!pick) return null;
  const picked = ballots.find((b) => b.placeId === pick.placeId);
  if (!picked) return null;
  if (revealing) {
    const candidate = pick.candidates[shown % pick.candidates.length];
    const name = ballots.find((b) => b.placeId === candidate)?.place.displayName.text ?? '';
    return (
      <section className="fv-pick fv-pick-revealing" aria-live="off" data-testid="pick-reveal">
        <h2 className="fv-decision-title">{DECISION_MESSAGES.pickedForYou}…</h2>
        <div className="fv-pick-shuffle">{name}</div>
      </section>
    );
  }
  return (
    <section className="fv-pick" aria-labelledby="pick-title" aria-live="polite" data-testid="pick">
      <h2 id="pick-title" className="fv-decision-title">
        {DECISION_MESSAGES.pickedForYou}: {picked.place.displayName.text}
      </h2>
      {children(picked)}
    </section>
  );
}

/** "Share the plan": a public page for the place, a calendar file, and the phone's share sheet. */
export function SharePlan({ ballot }: { ballot: Ballot }) {
  const { sharePlan } = useRoom();
  const [plan, setPlan] = useState<{ url: string; calendar: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const copier = useCopyLink();
  const name = ballot.place.displayName.text;

  const share = async () => {
    setBusy(true);
    setError(null);
    const answer = await sharePlan(ballot.placeId);
    setBusy(false);
    if ('error' in answer) return setError(answer.error);
    const url = `${window.location.origin}${answer.path}`;
    const token = answer.path.split('/').pop()!;
    setPlan({ url, calendar: `/api/v1/plans/${token}/calendar.ics` });
    await shareLink({ title: name, text: `The plan: ${name}`, url }, copier.copy);
  };

  return (
    <div className="fv-share-plan fv-stack">
      <PlainButton type="primary" onClick={share} loading={busy}>
        {DECISION_MESSAGES.sharePlan}
      </PlainButton>
      <CopyFeedback {...copier} />
      {plan && (
        <div className="fv-plan-links" data-testid="plan-links">
          <a href={plan.url} target="_blank" rel="noreferrer">
            Open the plan
          </a>
          <a href={plan.calendar} download="forkvote-plan.ics">
            {DECISION_MESSAGES.addToCalendar}
          </a>
        </div>
      )}
      {error && <PlainAlert type="error" message={error} role="alert" />}
    </div>
  );
}

/** The host's "Pick one for us". */
export function PickButton() {
  const { drawPick } = useRoom();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="fv-stack fv-pick-button">
      <PlainButton
        loading={busy}
        onClick={async () => {
          setBusy(true);
          setError(await drawPick());
          setBusy(false);
        }}
      >
        {DECISION_MESSAGES.pickOne}
      </PlainButton>
      {error && <PlainAlert type="error" message={error} role="alert" />}
    </div>
  );
}
