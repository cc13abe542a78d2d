import { ROOM_EVENTS, ROOM_MESSAGES, type RoomEventMap } from '@forkvote/contracts';
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
import { ApiError } from '../api/http';
import { useAuth } from '../auth/auth-context';
import { initialRoomState, roomReducer, RoomAction, RoomState } from './room-state';

const STORAGE_KEY = 'forkvote:room';
/** SPEC §9: at most 5 reconnects, 1000 ms doubling, capped at 30000 ms; reset on SUBSCRIBED_TO_SSE. */
export const RECONNECT = { attempts: 5, firstDelayMs: 1000, maxDelayMs: 30_000 };

export function reconnectDelay(attempt: number): number {
  return Math.min(RECONNECT.firstDelayMs * 2 ** attempt, RECONNECT.maxDelayMs);
}

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
        isLoading: false,
        error: null,
        isTransitioningToVoting: false,
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
  join: (waitingRoomId: string, userName: string) => Promise<boolean>;
  leave: () => Promise<boolean>;
  start: (search: object) => Promise<boolean>;
  vote: (votes: { placeId: string; voteType: 'up' | 'down' }[]) => Promise<boolean>;
  /** Asks for the next batch; false when there are no more places (the caller shows the dialog). */
  nextBatch: () => Promise<'moved' | 'none' | 'failed'>;
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

  // After a reload, the server's view wins (the room may have moved on or closed meanwhile).
  useEffect(() => {
    if (!stateRef.current.room.waitingRoom) return;
    api.currentRoom().then(
      (snapshot) => dispatch({ type: 'restored', snapshot, token: stateRef.current.room.token }),
      (err) => {
        if (err instanceof ApiError && (err.status === 403 || err.status === 404)) dispatch({ type: 'left' });
      },
    );
  }, []);

  useRoomEvents(state, dispatch);

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

  const leave = useCallback(async () => {
    const { waitingRoom, userId } = stateRef.current.room;
    if (!waitingRoom || !userId) return true;
    dispatch({ type: 'request', target: 'room' });
    try {
      await api.leaveRoom(waitingRoom.waitingRoomId, userId);
      dispatch({ type: 'left' });
      auth.guestLeft();
      return true;
    } catch (err) {
      // The room is gone already: nothing left to leave.
      if (err instanceof ApiError && (err.status === 403 || err.status === 404 || err.status === 410)) {
        dispatch({ type: 'left' });
        return true;
      }
      dispatch({ type: 'failed', target: 'room', error: errorMessage(err, ROOM_MESSAGES.failedLeave) });
      return false;
    }
  }, [auth]);

  const start = useCallback(async (search: object) => {
    const token = stateRef.current.room.token;
    dispatch({ type: 'request', target: 'session' });
    try {
      const answer = await api.startRoom(token ?? '', search);
      dispatch({ type: 'roomStarted', places: answer.places, demo: answer.demo });
      return true;
    } catch (err) {
      dispatch({ type: 'startFailed', error: errorMessage(err, ROOM_MESSAGES.failedStart, 'error') });
      return false;
    }
  }, []);

  const vote = useCallback(async (votes: { placeId: string; voteType: 'up' | 'down' }[]) => {
    const { waitingRoom, userId } = stateRef.current.room;
    dispatch({ type: 'request', target: 'session' });
    try {
      const answer = await api.vote(waitingRoom!.waitingRoomId, userId!, votes);
      dispatch({ type: 'voteSucceeded' });
      dispatch({ type: 'userVoted', usersVoted: answer.usersVoted });
      return true;
    } catch (err) {
      dispatch({
        type: 'failed',
        target: 'session',
        error: errorMessage(err, ROOM_MESSAGES.failedVote, 'error'),
      });
      return false;
    }
  }, []);

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

  const value = useMemo(
    () => ({ state, dispatch, create, join, leave, start, vote, nextBatch }),
    [state, create, join, leave, start, vote, nextBatch],
  );
  return <RoomContext.Provider value={value}>{children}</RoomContext.Provider>;
}

export function useRoom(): RoomContextValue {
  const context = useContext(RoomContext);
  if (!context) throw new Error('useRoom needs a RoomProvider');
  return context;
}

/**
 * The room's event stream: connects only with waitingRoomId, userId and userName; on error closes,
 * marks disconnected and retries with backoff, resuming after the last event id it saw.
 */
function useRoomEvents(state: RoomState, dispatch: (action: RoomAction) => void): void {
  const waitingRoomId = state.room.waitingRoom?.waitingRoomId;
  const { userId, userName } = state.room;
  const lastEventId = useRef(state.voting.lastEventId);
  lastEventId.current = state.voting.lastEventId;

  useEffect(() => {
    if (!waitingRoomId || !userId || !userName) return;
    let source: EventSource | null = null;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const on = <E extends keyof RoomEventMap>(name: E, handle: (data: RoomEventMap[E]) => void) =>
      source!.addEventListener(name, (event) => {
        const message = event as MessageEvent<string>;
        if (message.lastEventId) {
          lastEventId.current = message.lastEventId;
          dispatch({ type: 'eventId', id: message.lastEventId });
        }
        handle(JSON.parse(message.data) as RoomEventMap[E]);
      });

    const connect = () => {
      const query = new URLSearchParams({ userName, userId });
      if (lastEventId.current) query.set('lastEventId', lastEventId.current);
      source = new EventSource(`/api/v1/waiting-room/events/${waitingRoomId}?${query}`, {
        withCredentials: true,
      });
      on(ROOM_EVENTS.subscribed, () => {
        attempts = 0;
        dispatch({ type: 'sseConnected', connected: true });
      });
      on(ROOM_EVENTS.userJoined, (data) => dispatch({ type: 'userJoined', users: data.users }));
      on(ROOM_EVENTS.userLeft, (data) =>
        dispatch({ type: 'userLeft', userId: data.userId, users: data.users }),
      );
      on(ROOM_EVENTS.started, (data) =>
        dispatch({ type: 'roomStarted', places: data.places, demo: data.demo }),
      );
      on(ROOM_EVENTS.userVoted, (data) => dispatch({ type: 'userVoted', usersVoted: data.usersVoted }));
      on(ROOM_EVENTS.ballotsSubmitted, (data) => dispatch({ type: 'ballotsSubmitted', ballots: data }));
      on(ROOM_EVENTS.nextBatch, (data) =>
        dispatch({ type: 'nextBatch', nextBatchIndex: data.nextBatchIndex }),
      );
      source.onerror = () => {
        source?.close();
        dispatch({ type: 'sseConnected', connected: false });
        if (stopped || attempts >= RECONNECT.attempts) return;
        timer = setTimeout(connect, reconnectDelay(attempts));
        attempts += 1;
      };
    };

    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      source?.close();
      dispatch({ type: 'sseConnected', connected: false });
    };
  }, [waitingRoomId, userId, userName, dispatch]);
}

/**
 * Leaving empties the room state, and the voting routes' guard would then send the person to /profile or
 * /login; going home first lands them where SPEC §2 says, with the leave finishing there.
 */
export async function leaveAndGoHome(
  navigate: (to: string) => void | Promise<void>,
  leave: () => Promise<boolean>,
): Promise<void> {
  await navigate('/');
  await leave();
}
