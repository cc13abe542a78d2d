/**
 * A member's ballot on one batch, kept in the browser until the server has it: the choices made so far
 * (a reload mid-vote keeps them) and, once submitted, the votes with the Idempotency-Key they are sent
 * under, so a ballot sent during a network drop is sent again as the same ballot, never as a second one.
 */
export type Choice = 'up' | 'down';

export interface Ballot {
  key: string;
  votes: { placeId: string; voteType: Choice }[];
}

export interface KeptBallot {
  choices: Record<string, Choice>;
  /** Submitted, not yet answered by the server. */
  sending: Ballot | null;
}

const PREFIX = 'forkvote:ballot:';
const keyOf = (roomId: string, batchIndex: number) => `${PREFIX}${roomId}:${batchIndex}`;
const EMPTY: KeptBallot = { choices: {}, sending: null };

export function readBallot(roomId: string, batchIndex: number): KeptBallot {
  try {
    const raw = localStorage.getItem(keyOf(roomId, batchIndex));
    if (!raw) return EMPTY;
    const kept = JSON.parse(raw) as Partial<KeptBallot>;
    return { choices: kept.choices ?? {}, sending: kept.sending ?? null };
  } catch {
    return EMPTY;
  }
}

export function keepBallot(roomId: string, batchIndex: number, change: Partial<KeptBallot>): void {
  const next = { ...readBallot(roomId, batchIndex), ...change };
  try {
    localStorage.setItem(keyOf(roomId, batchIndex), JSON.stringify(next));
  } catch {
    // Storage full or refused (private mode): the ballot still lives in the page, just not past a reload.
  }
}

/** Forgets every kept ballot but those of `roomId`'s batch `keepBatch` (all of them when roomId is null). */
export function forgetBallots(roomId: string | null = null, keepBatch = -1): void {
  const keep = roomId === null ? null : keyOf(roomId, keepBatch);
  for (let i = localStorage.length - 1; i >= 0; i--) {
    const key = localStorage.key(i);
    if (key?.startsWith(PREFIX) && key !== keep) localStorage.removeItem(key);
  }
}
