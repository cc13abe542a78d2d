import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useRoom } from '../../room/room-context';
import { routeFor } from '../../room/room-state';

/** Keeps a member on the screen their voting state calls for (SPEC §4 navigation). */
export function useRoomNavigation(here: '/waiting-room' | '/voting' | '/results'): void {
  const { state } = useRoom();
  const navigate = useNavigate();
  const target =
    state.room.waitingRoom && !state.voting.isTransitioningToVoting ? routeFor(state.voting) : null;
  useEffect(() => {
    if (target && target !== here) navigate(target, { replace: true });
  }, [target, here, navigate]);
}
