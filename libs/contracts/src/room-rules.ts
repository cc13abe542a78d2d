/** Room constants, events, texts and the winner logic: shared by rooms, the gateway and the web app. */
import type { Ballot, BallotsResult } from './rooms';
import type { Place } from './places';

export const DECISION_RULES = ['unanimous', 'majority', 'most'] as const;
export type DecisionRule = (typeof DECISION_RULES)[number];
export const DEFAULT_DECISION_RULE: DecisionRule = 'unanimous';

export const ROOM_ID_LENGTH = 6;
export const ROOM_ID_PATTERN = /^[A-Za-z0-9]{6}$/;
export const USER_NAME_MAX = 30;

export const ROOM_EVENTS = {
  subscribed: 'SUBSCRIBED_TO_SSE',
  userJoined: 'USER_JOINED',
  userLeft: 'USER_LEFT',
  started: 'WAITING_ROOM_STARTED',
  userVoted: 'USER_VOTED',
  ballotsSubmitted: 'BALLOTS_SUBMITTED',
  nextBatch: 'NEXT_BATCH_OF_PLACES',
  nudge: 'NUDGE',
  decisionRuleChanged: 'DECISION_RULE_CHANGED',
  holdoutRoundStarted: 'HOLDOUT_ROUND_STARTED',
  holdoutAnswered: 'HOLDOUT_ANSWERED',
  holdoutRoundEnded: 'HOLDOUT_ROUND_ENDED',
  pickDrawn: 'PICK_DRAWN',
  groupInvited: 'GROUP_INVITED',
} as const;

/** A member can be nudged once per this many seconds. */
export const NUDGE_INTERVAL_SECONDS = 30;
export type RoomEventName = (typeof ROOM_EVENTS)[keyof typeof ROOM_EVENTS];

export const ROOM_MESSAGES = {
  invalidRoomId: 'Invalid waiting room ID',
  enterRoomId: 'Please enter a waiting room ID.',
  enterValidRoomId: 'Please enter a valid waiting room ID.',
  nameRequired: 'Please enter your name',
  nameTooLong: `Names can be at most ${USER_NAME_MAX} characters long`,
  roomNotFound: 'Waiting room not found. Check the ID and try again.',
  roomClosed: 'This waiting room has been closed.',
  notMember: 'You are not in this waiting room.',
  badIdempotencyKey: 'Idempotency-Key must be a UUID.',
  hostOnly: 'Only the host can do that.',
  mustSubscribe: 'Hosting a session needs an active plan. Choose one on your profile.',
  voteForYourself: 'You can only vote for yourself.',
  voteAllPlaces: 'Please vote on all 5 places of this batch.',
  alreadyVoted: 'You have already voted on this batch.',
  notVoting: 'Voting is not open in this room right now.',
  notResults: 'The results of this batch are not in yet.',
  noPlaces: 'No places were found there. Try a larger search radius or fewer filters.',
  noMorePlaces:
    "It doesn't look like there are any more places to vote on. Try changing the search radius or filters and starting a new session.",
  alreadyStarted: 'Voting has already started in this room.',
  failedCreate: 'Failed to create waiting room',
  failedJoin: 'Failed to join waiting room',
  failedLeave: 'Failed to leave waiting room',
  failedStart: 'Failed to start waiting room',
  failedVote: 'Failed to submit votes',
  failedNextBatch: 'Failed to get next batch of places',
  everyoneVoted: 'Everyone has voted already.',
  nudgedRecently: `Everyone who hasn't voted was nudged in the last ${NUDGE_INTERVAL_SECONDS} seconds. Give them a moment.`,
  failedNudge: 'Failed to nudge',
  tooManyStreams: 'This room is open in too many tabs. Close one and try again.',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request.',
} as const;

/** The places of batch `index` (5 per batch). */
export function batchOf<T>(places: T[], index: number, size = 5): T[] {
  return places.slice(index * size, index * size + size);
}

/** What a batch's results are computed from: its places in order and the votes of its present members. */
export interface BallotsInput {
  batchIndex: number;
  places: Place[];
  votes: { userId: string; placeId: string; voteType: 'up' | 'down' }[];
  /** The room's rule (absent from a relay of an older release: the unanimous rule). */
  decisionRule?: DecisionRule;
  /** Places a holdout round turned unanimous. */
  agreed?: string[];
  /** Whose ballot (or leave) closed the batch: not told by push what they already see. */
  closedBy?: string;
}

/**
 * A BALLOTS_SUBMITTED payload as results. Rooms' outbox holds a closed batch's input and its relay computes
 * the results as it publishes; a relay of an older release (during a rolling deploy, until a current one
 * holds the relay lock) publishes that input as it is, so whoever reads the event computes it the same way.
 */
export function ballotsResultOf(data: BallotsResult | BallotsInput): BallotsResult {
  return 'ballots' in data
    ? data
    : computeBallots(data.batchIndex, data.places, data.votes, data.decisionRule, data.agreed);
}

/**
 * SPEC §4 winner logic: only 'up' counts as approval; a unanimous winner is a place whose up votes equal
 * the number of voters. Ballots list places with votes for them first (most up votes first), then the rest.
 * The room's rule may let more places win (winnersByRule); a holdout round may turn places unanimous.
 */
export function computeBallots(
  batchIndex: number,
  places: Place[],
  votes: BallotsInput['votes'],
  decisionRule: DecisionRule = DEFAULT_DECISION_RULE,
  agreed: string[] = [],
): BallotsResult {
  const voterCount = new Set(votes.map((v) => v.userId)).size;
  const ballots: Ballot[] = places.map((place) => {
    const mine = votes.filter((v) => v.placeId === place.id);
    const upVotes = mine.filter((v) => v.voteType === 'up').length;
    return {
      placeId: place.id,
      place,
      upVotes,
      downVotes: mine.length - upVotes,
      approval: voterCount === 0 ? 0 : Math.round((upVotes / voterCount) * 100),
      votes: mine.map(({ userId, voteType }) => ({ userId, voteType })),
    };
  });
  ballots.sort((a, b) => Number(b.upVotes > 0) - Number(a.upVotes > 0) || b.upVotes - a.upVotes);
  const winners = winnersByRule(ballots, voterCount, decisionRule, agreed);
  return { batchIndex, voterCount, ballots, winners, decisionRule, agreed };
}

/** How many places "Closest to unanimous" shows at most. */
export const CLOSEST_COUNT = 3;

/**
 * With no unanimous winner, the places that came closest: those at least one voter approved, ranked by
 * approval, then by up votes, then by rating (a place with no rating last), then as the batch listed them.
 */
export function closestToUnanimous(result: BallotsResult, count = CLOSEST_COUNT): Ballot[] {
  if (result.winners.length > 0) return [];
  return result.ballots
    .map((ballot, order) => ({ ballot, order }))
    .filter(({ ballot }) => ballot.upVotes > 0)
    .sort(
      (a, b) =>
        b.ballot.approval - a.ballot.approval ||
        b.ballot.upVotes - a.ballot.upVotes ||
        (b.ballot.place.rating ?? -1) - (a.ballot.place.rating ?? -1) ||
        a.order - b.order,
    )
    .slice(0, count)
    .map(({ ballot }) => ballot);
}

/** SPEC §4's winner logic for the unanimous rule; more than half, or the most yes votes, for the others. */
export function winnersByRule(
  ballots: Pick<Ballot, 'placeId' | 'upVotes'>[],
  voterCount: number,
  rule: DecisionRule,
  agreed: readonly string[] = [],
): string[] {
  if (voterCount === 0) return [];
  const top = Math.max(0, ...ballots.map((b) => b.upVotes));
  const wins = (b: Pick<Ballot, 'placeId' | 'upVotes'>) => {
    if (b.upVotes === voterCount || agreed.includes(b.placeId)) return true;
    if (rule === 'majority') return b.upVotes * 2 > voterCount;
    if (rule === 'most') return top > 0 && b.upVotes === top;
    return false;
  };
  return ballots.filter(wins).map((b) => b.placeId);
}

/** The results headline under each rule; under the unanimous rule it is the SPEC's exactly. */
export function headlineFor(winnerCount: number, rule: DecisionRule = DEFAULT_DECISION_RULE): string {
  if (rule === 'majority') {
    if (winnerCount === 0) return 'No majority winner';
    return winnerCount === 1 ? 'We have a majority winner!' : `${winnerCount} places won a majority!`;
  }
  if (rule === 'most') {
    if (winnerCount === 0) return 'Nobody said yes to any place';
    return winnerCount === 1
      ? 'We have a winner with the most yes votes!'
      : `${winnerCount} places tied with the most yes votes!`;
  }
  if (winnerCount === 0) return 'No unanimous winner';
  if (winnerCount === 1) return 'We have a unanimous winner!';
  return `${winnerCount} places won unanimously!`;
}

/** SPEC §2 results headline (the unanimous rule's). */
export function resultsHeadline(winnerCount: number): string {
  return headlineFor(winnerCount, 'unanimous');
}
