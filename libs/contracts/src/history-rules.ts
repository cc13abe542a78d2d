/**
 * A registered member's past sessions (GET /api/v1/me/history): kept by rooms from each batch's results as
 * its events are published, so closing a room keeps what it decided. Guests have no history.
 */
import type { DecisionRule } from './room-rules';

/** Sessions per page of the history. */
export const HISTORY_PAGE_SIZE = 10;
/** The deepest page asked for: 100 pages of 10 are more sessions than anyone keeps looking through. */
export const HISTORY_MAX_PAGE = 100;

/** A place as the history keeps it: enough to recognise and find it again. */
export interface HistoryPlace {
  id: string;
  name: string;
  address: string;
  upVotes: number;
}

export interface HistoryBatch {
  batchIndex: number;
  voterCount: number;
  /** The batch's winners under the room's rule (holdout agreements included). */
  winners: HistoryPlace[];
  /** The place a draw picked, if the host asked for one. */
  picked: HistoryPlace | null;
  places: HistoryPlace[];
}

export interface HistorySession {
  waitingRoomId: string;
  startedAt: string;
  /** Everyone who joined, by the name they joined with, in the order they joined. */
  people: string[];
  decisionRule: DecisionRule;
  batches: HistoryBatch[];
}

export interface HistoryPage {
  sessions: HistorySession[];
  page: number;
  hasMore: boolean;
}

/** What a history shows as a session's outcome: each batch's pick, else its winners. */
export function sessionOutcome(session: HistorySession): HistoryPlace[] {
  return session.batches.flatMap((b) => (b.picked ? [b.picked] : b.winners));
}

/** A place chosen this many days ago or less counts as a recent pick ("Fresh picks"). */
export const FRESH_PICK_DAYS = 30;

/** rooms.recentPicks: the places a member's sessions chose in the last FRESH_PICK_DAYS, latest first. */
export interface RecentPicks {
  picks: { placeId: string; pickedAt: string }[];
}

/** "You picked this 12 days ago", counted in whole days of the viewer's calendar. */
export function pickedAgoText(pickedAt: string, now: Date = new Date()): string {
  const day = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  const days = Math.max(0, Math.round((day(now) - day(new Date(pickedAt))) / 86_400_000));
  if (days === 0) return 'You picked this today';
  if (days === 1) return 'You picked this yesterday';
  return `You picked this ${days} days ago`;
}

/** The places with no recent pick first, then the recent picks (each group in the order given). */
export function newPlacesFirst<T extends { lastPickedAt?: string }>(places: T[]): T[] {
  return [...places.filter((p) => !p.lastPickedAt), ...places.filter((p) => p.lastPickedAt)];
}
