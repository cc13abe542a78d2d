import type { AccessTokenPayload } from '@forkvote/contracts';
import { createContext, ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import useSWR from 'swr';
import { api } from '../api/endpoints';
import { ApiError } from '../api/http';

export interface AuthState {
  payload: AccessTokenPayload | null;
  isLoading: boolean;
  /**
   * verify-token could not be answered (the server or its Redis is briefly away, or the network): the
   * app keeps the user as they were, shows that it is reconnecting, and retries; never "signed out".
   */
  reconnecting: boolean;
  /** SPEC §2: signed in only when both isAuthenticated and isAuthorized are true. */
  isSignedIn: boolean;
  /** Creator-capable: may see Create Session links. */
  canCreate: boolean;
  /** Host role: may open /create-session. */
  isHostRole: boolean;
  isGuest: boolean;
  loggingOut: boolean;
  logout: () => Promise<void>;
  refresh: () => Promise<unknown>;
  setPayload: (payload: AccessTokenPayload) => void;
  guestJoined: () => void;
  guestLeft: () => void;
}

const AuthContext = createContext<AuthState | null>(null);
const GUEST_KEY = 'forkvote:guest';

/** verify-token on load; signed out (a payload that is not authenticated, or a 401) is an answer, not an error. */
async function verify(): Promise<AccessTokenPayload | null> {
  try {
    const payload = await api.verifyToken();
    return payload.isAuthenticated ? payload : null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const { data, error, isLoading, mutate } = useSWR('auth:verify-token', verify, {
    revalidateOnFocus: true,
    // Only failures other than 401 reach SWR (a 401 is an answer: signed out); retry them until answered.
    shouldRetryOnError: true,
    errorRetryInterval: 2000,
    errorRetryCount: Infinity,
  });
  const [loggingOut, setLoggingOut] = useState(false);
  const [isGuest, setGuest] = useState(() => sessionStorage.getItem(GUEST_KEY) === '1');

  const logout = useCallback(async () => {
    setLoggingOut(true);
    try {
      await api.logout().catch(() => undefined);
      await mutate(null, { revalidate: false });
    } finally {
      setLoggingOut(false);
    }
  }, [mutate]);

  const value = useMemo<AuthState>(() => {
    const payload = data ?? null;
    const isSignedIn = Boolean(payload?.isAuthenticated && payload?.isAuthorized);
    const reconnecting = error !== undefined;
    return {
      payload,
      // Not knowing yet is loading, not signed out: guards wait instead of sending the user to /login.
      isLoading: isLoading || (reconnecting && data === undefined),
      reconnecting,
      isSignedIn,
      canCreate: isSignedIn && Boolean(payload?.canCreateRooms),
      isHostRole: isSignedIn && Boolean(payload?.roles.includes('host')),
      isGuest: isGuest && !isSignedIn,
      loggingOut,
      logout,
      refresh: () => mutate(),
      setPayload: (next) => void mutate(next, { revalidate: false }),
      guestJoined: () => {
        sessionStorage.setItem(GUEST_KEY, '1');
        setGuest(true);
      },
      guestLeft: () => {
        sessionStorage.removeItem(GUEST_KEY);
        setGuest(false);
      },
    };
  }, [data, error, isLoading, isGuest, loggingOut, logout, mutate]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth needs an AuthProvider');
  return context;
}
