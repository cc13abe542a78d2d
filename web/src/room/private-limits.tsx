/**
 * "Your private limits" in the waiting room (docs/groups.md): each member's own diet, highest price and
 * longest distance, seen by nobody else. Plain markup and native selects, as the room pages are.
 */
import {
  DIET_LABELS,
  DIETS,
  LIMIT_DISTANCES_METERS,
  LIMITS_MESSAGES,
  limitDistanceLabel,
  NO_LIMITS,
  PRICE_FILTER_LEVELS,
  priceSigns,
  type Diet,
  type PriceLevel,
  type PrivateLimits,
} from '@forkvote/contracts';
import { useEffect, useId, useState } from 'react';
import { errorMessage, api } from '../api/endpoints';
import { PlainAlert } from '../components/plain-alert';
import { useRoom } from './room-context';

/** The three menus, the same in the waiting room and on the profile: each value as text, '' for no limit. */
export function limitFields(limits: PrivateLimits | null) {
  const distances: number[] = [...LIMIT_DISTANCES_METERS];
  if (limits?.maxDistanceMeters && !distances.includes(limits.maxDistanceMeters))
    distances.push(limits.maxDistanceMeters);
  distances.sort((a, b) => a - b);
  return [
    {
      name: 'diet',
      label: 'Diet',
      value: limits?.diet ?? '',
      options: [
        { value: '', label: 'No limit' },
        ...DIETS.map((diet) => ({ value: diet, label: DIET_LABELS[diet] })),
      ],
      change: (value: string): Partial<PrivateLimits> => ({ diet: (value || null) as Diet | null }),
    },
    {
      name: 'price',
      label: 'Highest price',
      value: limits?.maxPriceLevel ?? '',
      options: [
        { value: '', label: 'Any price' },
        ...PRICE_FILTER_LEVELS.slice(0, -1).map((level) => ({
          value: level,
          label: `Up to ${priceSigns(level)}`,
        })),
      ],
      change: (value: string): Partial<PrivateLimits> => ({
        maxPriceLevel: (value || null) as PriceLevel | null,
      }),
    },
    {
      name: 'distance',
      label: 'Longest distance',
      value: limits?.maxDistanceMeters ? String(limits.maxDistanceMeters) : '',
      options: [
        { value: '', label: 'Any distance' },
        ...distances.map((meters) => ({
          value: String(meters),
          label: `Within ${limitDistanceLabel(meters)}`,
        })),
      ],
      change: (value: string): Partial<PrivateLimits> => ({
        maxDistanceMeters: value ? Number(value) : null,
      }),
    },
  ];
}

export function PrivateLimitsCard() {
  const { state } = useRoom();
  const code = state.room.waitingRoom?.waitingRoomId;
  const waiting = state.voting.currentState === 'waiting';
  const [limits, setLimits] = useState<PrivateLimits | null>(null);
  const [fromProfile, setFromProfile] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!code) return;
    let live = true;
    api
      .limits(code)
      .then((answer) => {
        if (!live) return;
        setLimits(answer.limits);
        setFromProfile(answer.fromProfile);
      })
      .catch(() => live && setLimits(NO_LIMITS));
    return () => {
      live = false;
    };
  }, [code]);

  if (!code || !waiting) return null;

  const change = async (patch: Partial<PrivateLimits>) => {
    if (!limits) return;
    const before = limits;
    setLimits({ ...limits, ...patch });
    setBusy(true);
    try {
      const answer = await api.setLimits(code, patch);
      setLimits(answer.limits);
      setFromProfile(false);
      setStatus({ ok: true, message: LIMITS_MESSAGES.saved });
    } catch (err) {
      setLimits(before);
      setStatus({ ok: false, message: errorMessage(err, 'Your limits could not be saved. Try again.') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className="fv-light-card fv-light-card-body fv-stack fv-limits-card"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="fv-decision-title">
        Your private limits
      </h2>
      <p className="fv-muted fv-limits-note">
        Only you see these. Places that don’t fit them are left out before voting; the host sees only how
        many.
      </p>
      <div className="fv-limits-fields" aria-busy={limits === null}>
        {limitFields(limits).map((field) => (
          <label key={field.name} className="fv-limit">
            <span>{field.label}</span>
            <select
              value={field.value}
              disabled={!limits || busy}
              onChange={(e) => void change(field.change(e.target.value))}
            >
              {field.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {fromProfile && !status && (
        <span className="fv-muted" data-testid="limits-from-profile">
          From your profile. Change them here for this session.
        </span>
      )}
      {status &&
        (status.ok ? (
          <span className="fv-muted" role="status">
            {status.message}
          </span>
        ) : (
          <PlainAlert type="error" message={status.message} role="alert" />
        ))}
    </section>
  );
}
