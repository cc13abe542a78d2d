import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../auth/auth-context';
import { useRoom } from '../room/room-context';

function Checking() {
  return (
    <div className="fv-center" role="status" aria-label="Checking your session">
      <span className="fv-spinner" />
    </div>
  );
}

/** /profile: a logged-in user, otherwise /login. */
export function RequireUser({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (auth.isLoading) return <Checking />;
  if (!auth.isSignedIn) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return children;
}

/** /create-session: the host role; a logged-in user without it goes to /profile, anyone else to /login. */
export function RequireHost({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (auth.isLoading) return <Checking />;
  if (auth.isHostRole) return children;
  if (auth.isSignedIn) return <Navigate to="/profile" replace />;
  return <Navigate to="/login" replace state={{ from: location.pathname }} />;
}

/**
 * /waiting-room, /voting, /results: someone with a room identity (guest or registered). A registered
 * user who is in no room goes to /profile, a visitor to /login.
 */
export function RequireSessionUser({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const { state } = useRoom();
  if (state.room.userId && state.room.waitingRoom) return children;
  if (state.room.exitTo) return <Navigate to={state.room.exitTo} replace />;
  if (auth.isLoading) return <Checking />;
  if (auth.isGuest) return children; // the page explains that the room is gone, then goes home
  if (auth.isSignedIn) return <Navigate to="/profile" replace />;
  return <Navigate to="/login" replace />;
}
