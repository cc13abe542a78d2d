/**
 * How a room turns ballots into a decision, beyond the SPEC's unanimous rule (which stays the default and
 * stays exact): the room's decision rule, the holdout round ("Could you live with it?"), the draw that
 * breaks a tie, and the plan a group shares once it has a place. Shared by rooms, the gateway and the web.
 */
import { closestToUnanimous, DecisionRule } from './room-rules';
import type { BallotsResult } from './rooms';

/** What the waiting room, the voting page and the results call each rule. */
export const DECISION_RULE_LABELS: Record<DecisionRule, string> = {
  unanimous: 'Everyone agrees',
  majority: 'Most people agree',
  most: 'Most yes votes',
};

export const DECISION_RULE_HINTS: Record<DecisionRule, string> = {
  unanimous: 'A place wins when everyone says yes.',
  majority: 'A place wins when more than half say yes.',
  most: 'The places with the most yes votes win (at least one yes).',
};

export const DECISION_MESSAGES = {
  invalidRule: 'Choose how the room decides: unanimous, majority or most.',
  ruleLocked: 'The decision rule can only be changed before voting starts.',
  hasWinner: 'This batch already has a winner.',
  noHoldouts: 'No place came close enough to ask the holdouts.',
  holdoutsAsked: 'The holdouts of this batch have already been asked.',
  noHoldoutRound: 'Nobody is being asked to reconsider right now.',
  notAsked: 'You were not asked about this place.',
  alreadyAnswered: 'You have already answered about this place.',
  invalidAnswer: 'Answer yes or no.',
  alreadyDrawn: 'A place has already been picked for this batch.',
  nothingToDraw: 'There is nothing to pick from: this batch has one winner.',
  noCandidates: 'Nobody said yes to any place of this batch. Ask for more places instead.',
  holdoutsPending: 'Wait for the holdouts to answer first.',
  notAWinner: 'Only the place the group chose can be shared as the plan.',
  planNotFound: 'This plan does not exist.',
  invalidPlanTime: 'Choose a time within the next 30 days.',
  agreedAfterHoldout: 'Agreed after a second look',
  pickedForYou: 'Picked for you',
  askHoldouts: 'Ask the holdouts',
  pickOne: 'Pick one for us',
  sharePlan: 'Share the plan',
  addToCalendar: 'Add to calendar',
} as const;

/** One question of a holdout round: the people who said no to a place that came close. */
export interface HoldoutQuestion {
  placeId: string;
  placeName: string;
  userIds: string[];
}

/** A batch's holdout round as the room keeps it; `agreed` are the places every holdout turned on. */
export interface HoldoutRound {
  batchIndex: number;
  questions: HoldoutQuestion[];
  /** Who has answered which question (never the answer itself: the others see only who is deciding). */
  answered: { placeId: string; userId: string }[];
  ended: boolean;
  agreed: string[];
}

/** The most places a holdout round asks about. */
export const HOLDOUT_PLACES = 3;

/**
 * The questions of a holdout round, for a batch with no winner: the places with the most yes votes (at most
 * HOLDOUT_PLACES, as "Closest to unanimous" ranks them), each missing at most half of the room, asked of the
 * people who said no to it.
 */
export function holdoutQuestions(result: BallotsResult): HoldoutQuestion[] {
  if (result.winners.length > 0) return [];
  return closestToUnanimous(result, HOLDOUT_PLACES)
    .filter((b) => (result.voterCount - b.upVotes) * 2 <= result.voterCount)
    .map((b) => ({
      placeId: b.placeId,
      placeName: b.place.displayName.text,
      userIds: b.votes.filter((v) => v.voteType === 'down').map((v) => v.userId),
    }))
    .filter((q) => q.userIds.length > 0);
}

/** The people who still have a question of the round to answer, in the order they were asked. */
export function holdoutPending(round: Pick<HoldoutRound, 'questions' | 'answered' | 'ended'>): string[] {
  if (round.ended) return [];
  const done = new Set(round.answered.map((a) => `${a.placeId}\n${a.userId}`));
  const pending = new Set<string>();
  for (const q of round.questions)
    for (const userId of q.userIds) if (!done.has(`${q.placeId}\n${userId}`)) pending.add(userId);
  return [...pending];
}

/** What choosing the rule answers. */
export interface DecisionRuleAnswer {
  decisionRule: DecisionRule;
}

/** What answering a holdout question returns: who still has to answer, and the round's end if it ended. */
export interface HoldoutAnswer {
  answered: true;
  pending: string[];
  ended: boolean;
  agreed: string[];
}

export const holdoutQuestionText = (placeName: string) => `Could you live with ${placeName}?`;
export const holdoutWaitingText = (people: number) =>
  `Waiting for ${people} ${people === 1 ? 'person' : 'people'} to reconsider…`;

/** A draw the server made among a batch's candidates; one per batch, never redrawn. */
export interface DrawnPick {
  batchIndex: number;
  placeId: string;
  candidates: string[];
}

/**
 * What "Pick one for us" draws from: the winners when the rule left more than one; with no winner (the host
 * wants to stop discussing), the places that came closest; with exactly one winner, nothing.
 */
export function drawCandidates(result: BallotsResult): string[] {
  if (result.winners.length >= 2) return result.winners;
  if (result.winners.length === 1) return [];
  return closestToUnanimous(result).map((b) => b.placeId);
}

/** The place a batch decided on, if it decided one: the drawn pick, else its only winner. */
export function decidedPlace(result: BallotsResult | null, pick: DrawnPick | null): string | null {
  if (!result) return null;
  if (pick && pick.batchIndex === result.batchIndex) return pick.placeId;
  return result.winners.length === 1 ? result.winners[0] : null;
}

/** How the plan's place was chosen, as the plan page says it. */
export type DecidedBy = 'unanimous' | 'rule' | 'holdout' | 'draw';

export const DECIDED_BY_TEXT: Record<DecidedBy, string> = {
  unanimous: 'Everyone said yes.',
  rule: 'Chosen by the room’s rule.',
  holdout: DECISION_MESSAGES.agreedAfterHoldout + '.',
  draw: 'Picked by a fair draw among the favourites.',
};

/** GET /api/v1/plans/{token}: the public, read-only plan. Nothing about who voted how. */
export interface PlanView {
  token: string;
  place: {
    id: string;
    name: string;
    address: string;
    mapsUri: string;
    directionsUri: string;
    websiteUri: string | null;
    openNow: boolean | null;
    /** OpenStreetMap `opening_hours` text where the provider gave it. */
    hours: string | null;
    location: { latitude: number; longitude: number } | null;
  };
  startsAt: string;
  decidedAt: string;
  decidedBy: DecidedBy;
  decisionRule: DecisionRule;
}

/** A plan's token: 22 URL-safe characters (128 random bits). */
export const PLAN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** How far ahead a plan may be set. */
export const PLAN_MAX_AHEAD_DAYS = 30;

export interface SharePlanAnswer {
  token: string;
  /** Same-origin path of the plan page. */
  path: string;
}

/** The next quarter hour after `now`: a plan's time when nobody set one. */
export function nextQuarterHour(now: Date): Date {
  const quarter = 15 * 60_000;
  return new Date(Math.ceil((now.getTime() + 1) / quarter) * quarter);
}
