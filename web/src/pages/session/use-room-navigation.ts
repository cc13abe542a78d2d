import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useRoom } from '../../session/room-context';
import { routeFor } from '../../session/room-state';

/** Keeps a member on the screen their session state calls for (SPEC §4 navigation). */
export function useRoomNavigation(here: '/waiting-room' | '/voting' | '/results'): void {
  const { state } = useRoom();
  const navigate = useNavigate();
  const target =
    state.room.waitingRoom && !state.session.isTransitioningToVoting ? routeFor(state.session) : null;
  useEffect(() => {
    if (target && target !== here) navigate(target, { replace: true });
  }, [target, here, navigate]);
}
