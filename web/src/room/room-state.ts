/**
 * The waiting-room and voting state machines of SPEC §4, as pure reducers (unit-tested).
 */
import { ROOM_MESSAGES } from '@forkvote/contracts';
import type { StreamStatus } from './event-stream';
import type {
  BallotsResult,
  DecisionRule,
  DrawnPick,
  HoldoutQuestion,
  HoldoutRound,
  Place,
  RoomSnapshot,
  RoomUser,
  WaitingRoom,
} from '@forkvote/contracts';

export interface WaitingRoomState {
  isLoading: boolean;
  error: string | null;
  token: string | null;
  userId: string | null;
  userName: string | null;
  isHost: boolean;
  waitingRoom: WaitingRoom | null;
  /** Set when the person left on purpose: the voting routes send them here instead of their guard's default. */
  exitTo: string | null;
  /** A dialog to show once the person is out of the room (the host closed it; no more places). */
  notice: RoomNotice | null;
  /** The host's "Prefer new places": recent picks go to the last batch (sent with start). */
  preferNewPlaces: boolean;
}

export interface RoomNotice {
  title: string;
  message: string;
}

/** What members see when the host leaves, which closes the room. */
export const HOST_CLOSED_NOTICE: RoomNotice = { title: 'Session closed', message: ROOM_MESSAGES.roomClosed };

export type CurrentState = 'waiting' | 'voting' | 'results';

export interface VotingState {
  sseConnected: boolean;
  /** The stream in more detail: after its last attempt ('gaveUp') the page offers a Reconnect button. */
  sseStatus: StreamStatus;
  places: Place[];
  batchIndex: number;
  voted: boolean;
  usersVoted: string[];
  ballots: BallotsResult | null;
  isTransitioningToVoting: boolean;
  currentState: CurrentState;
  isLoading: boolean;
  error: string | null;
  lastEventId: string | null;
  demo: boolean;
  /** How many places the members' private limits left out at the start (the only figure shown of them). */
  leftOutByLimits: number;
  /** The host reminded this member to vote on the current batch (a NUDGE naming them). */
  nudgedBy: string | null;
  /** A submitted ballot is kept and being sent until the server has it ("Sending…"). */
  sending: boolean;
  /** How long the "Get Ready to Vote!" overlay still shows: less, or none, for a start heard late. */
  overlayMs: number;
  /** The current batch's holdout round, once the host asked the holdouts. */
  holdout: HoldoutRound | null;
  /** The current batch's drawn pick; `reveal` while it was just drawn (heard live, not on a reload). */
  pick: (DrawnPick & { reveal: boolean }) | null;
}

/** SPEC §2: the overlay between the start and the first batch. */
export const OVERLAY_MS = 3000;

/** A nudge replayed after a reconnect is old news: older than this it is not shown. */
export const NUDGE_FRESH_MS = 60_000;

export interface RoomState {
  room: WaitingRoomState;
  voting: VotingState;
}

export const initialWaitingRoom: WaitingRoomState = {
  isLoading: false,
  error: null,
  token: null,
  userId: null,
  userName: null,
  isHost: false,
  waitingRoom: null,
  exitTo: null,
  notice: null,
  preferNewPlaces: false,
};

export const initialVoting: VotingState = {
  sseConnected: false,
  sseStatus: 'connecting',
  places: [],
  batchIndex: 0,
  voted: false,
  usersVoted: [],
  ballots: null,
  isTransitioningToVoting: false,
  currentState: 'waiting',
  isLoading: false,
  error: null,
  lastEventId: null,
  demo: false,
  leftOutByLimits: 0,
  nudgedBy: null,
  sending: false,
  overlayMs: OVERLAY_MS,
  holdout: null,
  pick: null,
};

export const initialRoomState: RoomState = { room: initialWaitingRoom, voting: initialVoting };

export type RoomAction =
  | { type: 'request'; target: 'room' | 'session' }
  | { type: 'failed'; target: 'room' | 'session'; error: string }
  | { type: 'createStarted' }
  | { type: 'created'; token: string; waitingRoom: WaitingRoom; userId: string; userName: string }
  | { type: 'joined'; waitingRoom: WaitingRoom; userId: string; userName: string }
  | { type: 'left'; notice?: RoomNotice }
  | { type: 'exitHandled' }
  | { type: 'noticeSeen' }
  | { type: 'restored'; snapshot: RoomSnapshot; token: string | null }
  | { type: 'sseConnected'; connected: boolean }
  | { type: 'sseStatus'; status: StreamStatus }
  | { type: 'eventId'; id: string }
  | { type: 'userJoined'; users: RoomUser[] }
  | { type: 'userLeft'; userId: string; users: RoomUser[] }
  /** `agoMs`: how long ago the server started the room, when this is heard from its event log. */
  | {
      type: 'roomStarted';
      places: Place[];
      demo?: boolean;
      agoMs?: number;
      decisionRule?: DecisionRule;
      leftOutByLimits?: number;
    }
  | { type: 'setTransitioning'; value: boolean }
  | { type: 'startFailed'; error: string }
  | { type: 'userVoted'; usersVoted: string[] }
  | { type: 'voteSucceeded' }
  | { type: 'ballotKept' }
  | { type: 'ballotsSubmitted'; ballots: BallotsResult }
  | { type: 'nextBatch'; nextBatchIndex: number }
  | { type: 'nudged'; userIds: string[]; hostName: string; batchIndex: number; sentAt?: number }
  | { type: 'nudgeSeen' }
  | { type: 'ruleChanged'; decisionRule: DecisionRule }
  | { type: 'holdoutStarted'; batchIndex: number; questions: HoldoutQuestion[] }
  | { type: 'holdoutAnswered'; batchIndex: number; placeId: string; userId: string }
  | { type: 'holdoutEnded'; batchIndex: number; agreed: string[]; result: BallotsResult }
  | { type: 'pickDrawn'; pick: DrawnPick; reveal: boolean }
  | { type: 'pickRevealed' }
  | { type: 'preferNewPlaces'; value: boolean };

function withRule(room: WaitingRoomState, decisionRule: DecisionRule): WaitingRoomState {
  return room.waitingRoom ? { ...room, waitingRoom: { ...room.waitingRoom, decisionRule } } : room;
}

function withUsers(room: WaitingRoomState, users: RoomUser[]): WaitingRoomState {
  return room.waitingRoom ? { ...room, waitingRoom: { ...room.waitingRoom, users } } : room;
}

export function roomReducer(state: RoomState, action: RoomAction): RoomState {
  const { room, voting } = state;
  switch (action.type) {
    case 'request':
      return action.target === 'room'
        ? { ...state, room: { ...room, isLoading: true, error: null } }
        : { ...state, voting: { ...voting, isLoading: true, error: null } };
    case 'failed':
      return action.target === 'room'
        ? { ...state, room: { ...room, isLoading: false, error: action.error } }
        : { ...state, voting: { ...voting, isLoading: false, sending: false, error: action.error } };
    // Creating resets everything first.
    case 'createStarted':
      return { room: { ...initialWaitingRoom, isLoading: true }, voting: initialVoting };
    case 'created':
      return {
        room: {
          ...initialWaitingRoom,
          token: action.token,
          waitingRoom: action.waitingRoom,
          userId: action.userId,
          userName: action.userName,
          isHost: true,
        },
        voting: initialVoting,
      };
    case 'joined':
      return {
        room: {
          ...initialWaitingRoom,
          waitingRoom: action.waitingRoom,
          userId: action.userId,
          userName: action.userName,
          isHost: false,
        },
        voting: votingFromRoom(action.waitingRoom),
      };
    case 'left':
      return {
        room: { ...initialWaitingRoom, exitTo: '/', notice: action.notice ?? null },
        voting: initialVoting,
      };
    case 'exitHandled':
      return { ...state, room: { ...room, exitTo: null } };
    case 'noticeSeen':
      return { ...state, room: { ...room, notice: null } };
    case 'restored': {
      const s = action.snapshot;
      return {
        room: {
          ...initialWaitingRoom,
          token: action.token,
          waitingRoom: s.waitingRoom,
          userId: s.userId,
          userName: s.userName,
          isHost: s.isHost,
        },
        voting: {
          ...initialVoting,
          sseConnected: voting.sseConnected,
          sseStatus: voting.sseStatus,
          places: s.places,
          batchIndex: s.waitingRoom.batchIndex,
          voted: s.voted,
          usersVoted: s.usersVoted,
          ballots: s.ballots,
          currentState: s.waitingRoom.state === 'closed' ? 'waiting' : s.waitingRoom.state,
          lastEventId: s.lastEventId,
          holdout: s.holdout ?? null,
          pick: s.pick ? { ...s.pick, reveal: false } : null,
          leftOutByLimits: s.leftOutByLimits ?? 0,
        },
      };
    }
    case 'sseConnected':
      return {
        ...state,
        voting: {
          ...voting,
          sseConnected: action.connected,
          sseStatus: action.connected ? 'connected' : 'retrying',
        },
      };
    case 'sseStatus':
      return {
        ...state,
        voting: { ...voting, sseConnected: action.status === 'connected', sseStatus: action.status },
      };
    case 'eventId':
      return { ...state, voting: { ...voting, lastEventId: action.id } };
    case 'userJoined':
      return { ...state, room: withUsers(room, action.users) };
    // The host leaving closes the room: clear it and the local identity, and say so at home. Me leaving
    // (in another tab, or on another device) takes this tab out too: one person, one view.
    case 'userLeft':
      if (room.waitingRoom && action.userId === room.waitingRoom.createdBy.userId)
        return {
          room: { ...initialWaitingRoom, exitTo: '/', notice: HOST_CLOSED_NOTICE },
          voting: initialVoting,
        };
      if (room.userId !== null && action.userId === room.userId)
        return { room: { ...initialWaitingRoom, exitTo: '/' }, voting: initialVoting };
      return { ...state, room: withUsers(room, action.users) };
    // A replayed start (after a snapshot already past it) must not send the room back to the overlay.
    // A start heard late (the stream was down when it happened) shows only what is left of the overlay.
    case 'roomStarted': {
      if (voting.currentState !== 'waiting' && voting.places.length > 0) return state;
      const overlayMs = Math.max(0, OVERLAY_MS - Math.max(0, action.agoMs ?? 0));
      return {
        room: action.decisionRule ? withRule(room, action.decisionRule) : room,
        voting: {
          ...voting,
          places: action.places,
          demo: action.demo ?? false,
          leftOutByLimits: action.leftOutByLimits ?? 0,
          batchIndex: 0,
          isTransitioningToVoting: overlayMs > 0,
          currentState: overlayMs > 0 ? 'waiting' : 'voting',
          overlayMs,
          isLoading: false,
          error: null,
        },
      };
    }
    // false → voting, true → waiting (SPEC §4).
    case 'setTransitioning':
      return {
        ...state,
        voting: {
          ...voting,
          isTransitioningToVoting: action.value,
          currentState: action.value ? 'waiting' : 'voting',
        },
      };
    case 'startFailed':
      return {
        ...state,
        voting: { ...voting, isTransitioningToVoting: false, isLoading: false, error: action.error },
      };
    case 'userVoted': {
      // My ballot, cast in another tab or on another device, counts here too: one person, one view.
      const mine = room.userId !== null && action.usersVoted.includes(room.userId);
      return {
        ...state,
        voting: {
          ...voting,
          usersVoted: action.usersVoted,
          ...(mine ? { voted: true, sending: false, nudgedBy: null } : {}),
        },
      };
    }
    case 'voteSucceeded':
      return {
        ...state,
        voting: { ...voting, voted: true, isLoading: false, sending: false, error: null, nudgedBy: null },
      };
    case 'ballotKept':
      return { ...state, voting: { ...voting, sending: true, isLoading: false, error: null } };
    case 'ballotsSubmitted':
      return {
        ...state,
        voting: {
          ...voting,
          ballots: action.ballots,
          currentState: 'results',
          isLoading: false,
          nudgedBy: null,
        },
      };
    // Shown only to the members it names who still have to vote on this batch, and only while fresh.
    case 'nudged': {
      const forMe = room.userId !== null && action.userIds.includes(room.userId);
      const fresh = action.sentAt === undefined || Date.now() - action.sentAt < NUDGE_FRESH_MS;
      if (!forMe || !fresh || voting.voted || action.batchIndex !== voting.batchIndex) return state;
      if (voting.currentState !== 'voting') return state;
      return { ...state, voting: { ...voting, nudgedBy: action.hostName } };
    }
    case 'nudgeSeen':
      return { ...state, voting: { ...voting, nudgedBy: null } };
    // A replayed next batch (one this member is already on) must not clear the ballot they cast on it.
    case 'nextBatch':
      if (action.nextBatchIndex <= voting.batchIndex && voting.currentState !== 'waiting') return state;
      return {
        ...state,
        voting: {
          ...voting,
          batchIndex: action.nextBatchIndex,
          voted: false,
          usersVoted: [],
          ballots: null,
          isTransitioningToVoting: false,
          currentState: 'voting',
          isLoading: false,
          sending: false,
          nudgedBy: null,
          holdout: null,
          pick: null,
        },
      };
    case 'ruleChanged':
      return { ...state, room: withRule(room, action.decisionRule) };
    case 'holdoutStarted':
      if (action.batchIndex !== voting.batchIndex || voting.holdout?.batchIndex === action.batchIndex)
        return state;
      return {
        ...state,
        voting: {
          ...voting,
          holdout: {
            batchIndex: action.batchIndex,
            questions: action.questions,
            answered: [],
            ended: false,
            agreed: [],
          },
        },
      };
    case 'holdoutAnswered': {
      const round = voting.holdout;
      if (!round || round.batchIndex !== action.batchIndex || round.ended) return state;
      if (round.answered.some((a) => a.placeId === action.placeId && a.userId === action.userId))
        return state;
      const answered = [...round.answered, { placeId: action.placeId, userId: action.userId }];
      return { ...state, voting: { ...voting, holdout: { ...round, answered } } };
    }
    case 'holdoutEnded': {
      if (action.batchIndex !== voting.batchIndex) return state;
      const round = voting.holdout ?? {
        batchIndex: action.batchIndex,
        questions: [],
        answered: [],
        ended: true,
        agreed: [],
      };
      return {
        ...state,
        voting: {
          ...voting,
          holdout: { ...round, ended: true, agreed: action.agreed },
          ballots: action.result,
        },
      };
    }
    case 'pickDrawn':
      if (action.pick.batchIndex !== voting.batchIndex || voting.pick) return state;
      return { ...state, voting: { ...voting, pick: { ...action.pick, reveal: action.reveal } } };
    case 'preferNewPlaces':
      return { ...state, room: { ...room, preferNewPlaces: action.value } };
    case 'pickRevealed':
      return voting.pick
        ? { ...state, voting: { ...voting, pick: { ...voting.pick, reveal: false } } }
        : state;
    default:
      return state;
  }
}

function votingFromRoom(waitingRoom: WaitingRoom): VotingState {
  return { ...initialVoting, batchIndex: waitingRoom.batchIndex };
}

/** Where the session's state says the member belongs (SPEC §4 navigation). */
export function routeFor(voting: VotingState): '/waiting-room' | '/voting' | '/results' {
  if (voting.currentState === 'results' || (voting.ballots && voting.ballots.ballots.length > 0))
    return '/results';
  if (voting.currentState === 'voting') return '/voting';
  return '/waiting-room';
}
