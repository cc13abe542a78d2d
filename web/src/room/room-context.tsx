import {
  ballotsResultOf,
  DEFAULT_DECISION_RULE,
  ROOM_EVENTS,
  ROOM_MESSAGES,
  type DecisionRule,
  type BallotsInput,
  type BallotsResult,
  type RoomEventMap,
} from '@forkvote/contracts';
import {
  createContext,
  ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
} from 'react';
import { api, errorMessage } from '../api/endpoints';
import { ApiError, isUnanswered, newIdempotencyKey } from '../api/http';
import { useAuth } from '../auth/auth-context';
import { forgetBallots, keepBallot, readBallot, type Choice } from './ballot-store';
import { RoomEventStream } from './event-stream';
import {
  HOST_CLOSED_NOTICE,
  initialRoomState,
  roomReducer,
  RoomAction,
  RoomNotice,
  RoomState,
} from './room-state';

const STORAGE_KEY = 'forkvote:room';
function loadPersisted(): RoomState {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return initialRoomState;
    const saved = JSON.parse(raw) as RoomState;
    return {
      room: { ...initialRoomState.room, ...saved.room, isLoading: false, error: null },
      voting: {
        ...initialRoomState.voting,
        ...saved.voting,
        sseConnected: false,
        sseStatus: 'connecting',
        // After a reload the server's view wins: the stream starts from a fresh snapshot (the room may have
        // moved on, further than the event log keeps, or closed meanwhile).
        lastEventId: null,
        isLoading: false,
        error: null,
        isTransitioningToVoting: false,
        // A ballot kept unsent by the page before the reload is sent again by this one.
        sending: saved.room?.waitingRoom
          ? readBallot(saved.room.waitingRoom.waitingRoomId, saved.voting?.batchIndex ?? 0).sending !== null
          : false,
      },
    };
  } catch {
    return initialRoomState;
  }
}

export interface RoomContextValue {
  state: RoomState;
  dispatch: (action: RoomAction) => void;
  create: (userName: string) => Promise<boolean>;
  /** Opens a room for a saved group (its owner), inviting its registered members. */
  startGroup: (groupId: string) => Promise<boolean>;
  join: (waitingRoomId: string, userName: string) => Promise<boolean>;
  /** Leaves the room; `notice` is shown once the person is out (at home). */
  /** Leaves the room; `beforeLeft` runs once the server has it, before the room state empties. */
  leave: (notice?: RoomNotice, beforeLeft?: () => void | Promise<void>) => Promise<boolean>;
  start: (search: object) => Promise<boolean>;
  /**
   * Submits the ballot: kept until the server has it and sent again, under the same Idempotency-Key, while
   * the network is away or the answer does not come. Resolves once it is answered, either way.
   */
  vote: (votes: { placeId: string; voteType: Choice }[]) => Promise<boolean>;
  /** Asks for the next batch; false when there are no more places (the caller shows the dialog). */
  nextBatch: () => Promise<'moved' | 'none' | 'failed'>;
  /** Reconnects the event stream at once (the Reconnect button). */
  reconnect: () => void;
  /** Host only: reminds the members who have not voted; answers what to tell the host. */
  nudge: () => Promise<{ ok: boolean; message: string }>;
  /** Host only, in the waiting room: how the room decides. Answers an error message, or null. */
  setRule: (decisionRule: DecisionRule) => Promise<string | null>;
  /** Host only: asks the holdouts of a batch with no winner. Answers an error message, or null. */
  askHoldouts: () => Promise<string | null>;
  /** A holdout's answer to "Could you live with {place}?". Answers an error message, or null. */
  answerHoldout: (placeId: string, answer: 'yes' | 'no') => Promise<string | null>;
  /** Host only: one fair draw among the winners (or the closest). Answers an error message, or null. */
  drawPick: () => Promise<string | null>;
  /** Shares the decided place as a plan: its path, or the error message. */
  sharePlan: (placeId: string) => Promise<{ path: string } | { error: string }>;
}

const RoomContext = createContext<RoomContextValue | null>(null);

export function RoomProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(roomReducer, undefined, loadPersisted);
  const auth = useAuth();
  const stateRef = useRef(state);
  stateRef.current = state;

  // Persist across reloads, so a member who refreshes stays in the room.
  useEffect(() => {
    if (!state.room.waitingRoom) localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify({ room: state.room, voting: state.voting }));
  }, [state]);
  // Only the current batch's ballot is worth keeping, and none once out of the room.
  const roomId = state.room.waitingRoom?.waitingRoomId ?? null;
  const { batchIndex } = state.voting;
  useEffect(() => forgetBallots(roomId, batchIndex), [roomId, batchIndex]);

  const reconnect = useRoomEvents(state, dispatch, stateRef);

  const create = useCallback(
    async (userName: string) => {
      dispatch({ type: 'createStarted' });
      try {
        const answer = await api.createRoom(auth.payload?.userId ?? '', userName);
        dispatch({ type: 'created', ...answer });
        return true;
      } catch (err) {
        dispatch({ type: 'failed', target: 'room', error: errorMessage(err, ROOM_MESSAGES.failedCreate) });
        return false;
      }
    },
    [auth.payload?.userId],
  );

  const startGroup = useCallback(async (groupId: string) => {
    dispatch({ type: 'createStarted' });
    try {
      const answer = await api.startGroup(groupId);
      dispatch({ type: 'created', ...answer });
      return true;
    } catch (err) {
      dispatch({ type: 'failed', target: 'room', error: errorMessage(err, ROOM_MESSAGES.failedCreate) });
      return false;
    }
  }, []);

  const join = useCallback(
    async (waitingRoomId: string, userName: string) => {
      dispatch({ type: 'request', target: 'room' });
      try {
        const answer = await api.joinRoom(
          waitingRoomId.trim(),
          userName.trim(),
          stateRef.current.room.userId ?? auth.payload?.userId ?? '',
        );
        dispatch({ type: 'joined', ...answer });
        if (!auth.isSignedIn) auth.guestJoined();
        return true;
      } catch (err) {
        dispatch({ type: 'failed', target: 'room', error: errorMessage(err, ROOM_MESSAGES.failedJoin) });
        return false;
      }
    },
    [auth],
  );

  const leave = useCallback(
    async (notice?: RoomNotice, beforeLeft?: () => void | Promise<void>) => {
      const { waitingRoom, userId } = stateRef.current.room;
      if (!waitingRoom || !userId) return true;
      dispatch({ type: 'request', target: 'room' });
      try {
        await api.leaveRoom(waitingRoom.waitingRoomId, userId);
        await beforeLeft?.();
        dispatch({ type: 'left', notice });
        auth.guestLeft();
        return true;
      } catch (err) {
        // The room is gone already: nothing left to leave.
        if (err instanceof ApiError && (err.status === 403 || err.status === 404 || err.status === 410)) {
          await beforeLeft?.();
          dispatch({ type: 'left', notice });
          return true;
        }
        // SPEC §8: the server's message, else 'Failed to leave waiting room' (no answer at all included).
        const error =
          err instanceof ApiError ? errorMessage(err, ROOM_MESSAGES.failedLeave) : ROOM_MESSAGES.failedLeave;
        dispatch({ type: 'failed', target: 'room', error });
        return false;
      }
    },
    [auth],
  );

  const start = useCallback(async (search: object) => {
    const token = stateRef.current.room.token;
    dispatch({ type: 'request', target: 'session' });
    try {
      const { waitingRoom, preferNewPlaces } = stateRef.current.room;
      const decisionRule = waitingRoom?.decisionRule ?? DEFAULT_DECISION_RULE;
      const answer = await api.startRoom(token ?? '', { ...search, decisionRule, preferNewPlaces });
      dispatch({
        type: 'roomStarted',
        places: answer.places,
        demo: answer.demo,
        decisionRule,
        leftOutByLimits: answer.leftOutByLimits,
      });
      return true;
    } catch (err) {
      dispatch({ type: 'startFailed', error: errorMessage(err, ROOM_MESSAGES.failedStart, 'error') });
      return false;
    }
  }, []);

  const delivery = useBallotDelivery(state, dispatch, stateRef);
  const vote = useCallback(
    async (votes: { placeId: string; voteType: Choice }[]) => {
      const { room, voting } = stateRef.current;
      if (!room.waitingRoom) return false;
      keepBallot(room.waitingRoom.waitingRoomId, voting.batchIndex, {
        sending: { key: newIdempotencyKey(), votes },
      });
      dispatch({ type: 'request', target: 'session' });
      return delivery();
    },
    [delivery],
  );

  const nextBatch = useCallback(async () => {
    const { room, voting } = stateRef.current;
    const next = voting.batchIndex + 1;
    if (next * 5 >= voting.places.length) return 'none' as const;
    dispatch({ type: 'request', target: 'session' });
    try {
      const answer = await api.nextBatch(room.token ?? '', room.waitingRoom!.waitingRoomId, next);
      if (answer.noMorePlaces) return 'none' as const;
      dispatch({ type: 'nextBatch', nextBatchIndex: answer.batchIndex });
      return 'moved' as const;
    } catch {
      // SPEC §8: a next-batch rejection is stored as 'Failed to submit votes'.
      dispatch({ type: 'failed', target: 'session', error: ROOM_MESSAGES.failedVote });
      return 'failed' as const;
    }
  }, []);

  const nudge = useCallback(async () => {
    const { room } = stateRef.current;
    try {
      const answer = await api.nudge(room.token ?? '', room.waitingRoom!.waitingRoomId);
      const count = answer.nudged.length;
      return { ok: true, message: `Nudged ${count === 1 ? '1 person' : `${count} people`}.` };
    } catch (err) {
      return { ok: false, message: errorMessage(err, ROOM_MESSAGES.failedNudge) };
    }
  }, []);

  const decisions = useDecisions(dispatch, stateRef);

  const value = useMemo(
    () => ({
      state,
      dispatch,
      create,
      startGroup,
      join,
      leave,
      start,
      vote,
      nextBatch,
      reconnect,
      nudge,
      ...decisions,
    }),
    [state, create, startGroup, join, leave, start, vote, nextBatch, reconnect, nudge, decisions],
  );
  return <RoomContext.Provider value={value}>{children}</RoomContext.Provider>;
}

export function useRoom(): RoomContextValue {
  const context = useContext(RoomContext);
  if (!context) throw new Error('useRoom needs a RoomProvider');
  return context;
}

/** Each room event as the reducer action it becomes. */
const EVENT_ACTIONS: {
  [E in keyof RoomEventMap]: (
    data: RoomEventMap[E] & { sentAt?: number },
    serverNow: number,
  ) => RoomAction | null;
} = {
  [ROOM_EVENTS.subscribed]: () => null,
  [ROOM_EVENTS.userJoined]: (data) => ({ type: 'userJoined', users: data.users }),
  [ROOM_EVENTS.userLeft]: (data) => ({ type: 'userLeft', userId: data.userId, users: data.users }),
  [ROOM_EVENTS.started]: (data, serverNow) => ({
    type: 'roomStarted',
    places: data.places,
    demo: data.demo,
    decisionRule: data.decisionRule,
    leftOutByLimits: data.leftOutByLimits,
    agoMs: data.sentAt === undefined ? 0 : serverNow - data.sentAt,
  }),
  [ROOM_EVENTS.userVoted]: (data) => ({ type: 'userVoted', usersVoted: data.usersVoted }),
  // During a rolling deploy an older relay may publish the batch's input instead of its results.
  [ROOM_EVENTS.ballotsSubmitted]: (data) => ({
    type: 'ballotsSubmitted',
    ballots: ballotsResultOf(data as BallotsResult | BallotsInput),
  }),
  [ROOM_EVENTS.nextBatch]: (data) => ({ type: 'nextBatch', nextBatchIndex: data.nextBatchIndex }),
  [ROOM_EVENTS.nudge]: (data) => ({
    type: 'nudged',
    userIds: data.userIds,
    hostName: data.hostName,
    batchIndex: data.batchIndex,
    sentAt: data.sentAt,
  }),
  [ROOM_EVENTS.decisionRuleChanged]: (data) => ({ type: 'ruleChanged', decisionRule: data.decisionRule }),
  [ROOM_EVENTS.holdoutRoundStarted]: (data) => ({
    type: 'holdoutStarted',
    batchIndex: data.batchIndex,
    questions: data.questions,
  }),
  [ROOM_EVENTS.holdoutAnswered]: (data) => ({
    type: 'holdoutAnswered',
    batchIndex: data.batchIndex,
    placeId: data.placeId,
    userId: data.userId,
  }),
  [ROOM_EVENTS.holdoutRoundEnded]: (data) => ({
    type: 'holdoutEnded',
    batchIndex: data.batchIndex,
    agreed: data.agreed,
    result: data.result,
  }),
  // Revealed with a short animation when heard as it happens; a draw replayed later just shows.
  [ROOM_EVENTS.pickDrawn]: (data, serverNow) => ({
    type: 'pickDrawn',
    pick: { batchIndex: data.batchIndex, placeId: data.placeId, candidates: data.candidates },
    reveal: data.sentAt === undefined || serverNow - data.sentAt < PICK_REVEAL_FRESH_MS,
  }),
  // For the invitees' notifications; the room itself has nothing to show of it.
  [ROOM_EVENTS.groupInvited]: () => null,
};

/** A draw heard later than this after it was made is shown without the reveal. */
const PICK_REVEAL_FRESH_MS = 15_000;

/**
 * The room's event stream (SPEC §4): connects only with waitingRoomId, userId and userName. Every connect
 * resumes after the last event id seen; with none yet, it first applies a room snapshot and resumes after
 * the snapshot's id, so nothing that happened before the stream opened is missed. Returns a function that
 * reconnects at once (after the last attempt failed, or when the network or the tab comes back).
 */
function useRoomEvents(
  state: RoomState,
  dispatch: (action: RoomAction) => void,
  stateRef: { current: RoomState },
): () => void {
  const waitingRoomId = state.room.waitingRoom?.waitingRoomId;
  const { userId, userName } = state.room;
  const stream = useRef<RoomEventStream | null>(null);

  useEffect(() => {
    if (!waitingRoomId || !userId || !userName) return;
    const query = new URLSearchParams({ userName, userId });
    const current = new RoomEventStream(`/api/v1/waiting-room/events/${waitingRoomId}?${query}`, {
      resumeFrom: async () => {
        const seen = stateRef.current.voting.lastEventId;
        if (seen) return seen;
        const snapshot = await api.currentRoom();
        dispatch({ type: 'restored', snapshot, token: stateRef.current.room.token });
        // An empty log has no id yet: resume from its start, so its first event is not missed either.
        return snapshot.lastEventId ?? '0-0';
      },
      onEvent: (name, data, id) => {
        if (id) dispatch({ type: 'eventId', id });
        const toAction = EVENT_ACTIONS[name as keyof RoomEventMap] as
          ((data: unknown, serverNow: number) => RoomAction | null) | undefined;
        const action = toAction?.(JSON.parse(data), current.serverNow());
        if (action) dispatch(action);
      },
      onStatus: (status) => dispatch({ type: 'sseStatus', status }),
      onGone: () => dispatch({ type: 'left', notice: HOST_CLOSED_NOTICE }),
    });
    stream.current = current;
    current.start();
    const wake = () => {
      if (document.visibilityState === 'visible') current.reconnectNow();
    };
    window.addEventListener('online', wake);
    document.addEventListener('visibilitychange', wake);
    return () => {
      window.removeEventListener('online', wake);
      document.removeEventListener('visibilitychange', wake);
      current.stop();
      stream.current = null;
      dispatch({ type: 'sseStatus', status: 'connecting' });
    };
  }, [waitingRoomId, userId, userName, dispatch, stateRef]);

  return useCallback(() => stream.current?.reconnectNow(), []);
}

/**
 * Leaves, and once the server has it goes home (SPEC §2), before the room state empties: the voting routes'
 * guard would otherwise send the person to /profile or /login. A leave that fails keeps the person on the
 * page they are on, where the page shows the server's message or 'Failed to leave waiting room' (SPEC §8).
 */
export async function leaveAndGoHome(
  navigate: (to: string) => void | Promise<void>,
  leave: (notice?: RoomNotice, beforeLeft?: () => void | Promise<void>) => Promise<boolean>,
  notice?: RoomNotice,
): Promise<boolean> {
  return leave(notice, () => navigate('/'));
}

/** Waits between sends of a kept ballot: 1, 2, 4, 8, then every 15 s, or less when the network returns. */
const RESEND_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000];

/**
 * Sends the kept ballot of the current batch until the server answers it: a refusal is shown, an answer
 * that does not come (no network, a timeout, a busy server) is waited out and sent again under the same
 * Idempotency-Key, at once when the network, the tab or the room's stream comes back. A ballot kept by the
 * page before a reload is sent on load. Answers the function that submits: true once the server has it.
 */
function useBallotDelivery(
  state: RoomState,
  dispatch: (action: RoomAction) => void,
  stateRef: { current: RoomState },
): () => Promise<boolean> {
  const running = useRef<Promise<boolean> | null>(null);
  const wake = useRef<() => void>(() => undefined);

  const deliver = useCallback((): Promise<boolean> => {
    if (running.current) {
      wake.current();
      return running.current;
    }
    const run = async () => {
      for (let attempt = 0; ; attempt++) {
        const { room, voting } = stateRef.current;
        if (!room.waitingRoom || !room.userId) return false;
        const roomId = room.waitingRoom.waitingRoomId;
        const { sending } = readBallot(roomId, voting.batchIndex);
        if (!sending) return voting.voted;
        // Counted already (another tab, or an answer that came by the stream): nothing left to send.
        if (voting.voted) {
          keepBallot(roomId, voting.batchIndex, { choices: {}, sending: null });
          return true;
        }
        dispatch({ type: 'ballotKept' });
        try {
          const answer = await api.vote(roomId, room.userId, sending);
          keepBallot(roomId, voting.batchIndex, { choices: {}, sending: null });
          dispatch({ type: 'voteSucceeded' });
          dispatch({ type: 'userVoted', usersVoted: answer.usersVoted });
          return true;
        } catch (err) {
          if (!isUnanswered(err)) {
            keepBallot(roomId, voting.batchIndex, { sending: null });
            dispatch({
              type: 'failed',
              target: 'session',
              error: errorMessage(err, ROOM_MESSAGES.failedVote, 'error'),
            });
            return false;
          }
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, RESEND_DELAYS_MS[Math.min(attempt, RESEND_DELAYS_MS.length - 1)]);
          function done() {
            clearTimeout(timer);
            window.removeEventListener('online', done);
            wake.current = () => undefined;
            resolve();
          }
          window.addEventListener('online', done);
          wake.current = done;
        });
      }
    };
    const promise = run().finally(() => {
      running.current = null;
    });
    running.current = promise;
    return promise;
  }, [dispatch, stateRef]);

  // A kept ballot goes out on load, and at once when the room's stream reconnects (the network is back).
  const { sending, sseStatus } = state.voting;
  useEffect(() => {
    if (sending && (sseStatus === 'connected' || !running.current)) void deliver();
  }, [sending, sseStatus, deliver]);

  return deliver;
}

/**
 * The room's decision commands (docs/decisions.md). Each answers the server's message when refused; the
 * room's events bring the outcome to every member, this one included.
 */
function useDecisions(dispatch: (action: RoomAction) => void, stateRef: { current: RoomState }) {
  return useMemo(() => {
    const room = () => stateRef.current.room;
    const refusal = (err: unknown) => errorMessage(err, 'An unexpected error occurred');
    const attempt = async (call: () => Promise<unknown>) => {
      try {
        await call();
        return null;
      } catch (err) {
        return refusal(err);
      }
    };
    return {
      setRule: (decisionRule: DecisionRule) =>
        attempt(async () => {
          const { token, waitingRoom } = room();
          await api.setRule(token ?? '', waitingRoom!.waitingRoomId, decisionRule);
          dispatch({ type: 'ruleChanged', decisionRule });
        }),
      askHoldouts: () =>
        attempt(async () => {
          const { token, waitingRoom } = room();
          const round = await api.askHoldouts(token ?? '', waitingRoom!.waitingRoomId);
          dispatch({ type: 'holdoutStarted', batchIndex: round.batchIndex, questions: round.questions });
        }),
      answerHoldout: (placeId: string, answer: 'yes' | 'no') =>
        attempt(async () => {
          const { waitingRoom, userId } = room();
          await api.answerHoldout(waitingRoom!.waitingRoomId, userId ?? '', placeId, answer);
          const batchIndex = stateRef.current.voting.batchIndex;
          dispatch({ type: 'holdoutAnswered', batchIndex, placeId, userId: userId ?? '' });
        }),
      drawPick: () =>
        attempt(async () => {
          const { token, waitingRoom } = room();
          const pick = await api.drawPick(token ?? '', waitingRoom!.waitingRoomId);
          dispatch({ type: 'pickDrawn', pick, reveal: true });
        }),
      sharePlan: async (placeId: string) => {
        try {
          return { path: (await api.sharePlan(room().waitingRoom!.waitingRoomId, placeId)).path };
        } catch (err) {
          return { error: refusal(err) };
        }
      },
    };
  }, [dispatch, stateRef]);
}
