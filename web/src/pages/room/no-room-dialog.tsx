import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { AntdScope } from '../../app/antd-scope';
import { AlertDialog } from '../../components/dialogs/dialogs';

/** How long the "Oops!" dialog shows before it takes the person home by itself. */
export const NO_ROOM_REDIRECT_MS = 3000;

const NO_ROOM_MESSAGES = {
  'waiting room': "It doesn't look like you're in a waiting room. You will be redirected to the home page.",
  session: "It doesn't look like you're in a session. You will be redirected to the home page.",
};

/**
 * SPEC §2 "Oops!" dialog for someone whose room is gone: the waiting room's wording there, the session's on
 * voting and results. It goes home by itself after NO_ROOM_REDIRECT_MS, or at once on OK.
 */
export function NoRoomDialog({ within }: { within: 'waiting room' | 'session' }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate('/', { replace: true }), NO_ROOM_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <AntdScope>
      <AlertDialog open title="Oops!" message={NO_ROOM_MESSAGES[within]} onConfirm={() => navigate('/')} />
    </AntdScope>
  );
}
