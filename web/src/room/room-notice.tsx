import { AlertDialog } from '../components/dialogs/dialogs';
import { useRoom } from './room-context';

/**
 * The dialog left behind when someone is out of a room for a reason worth saying (the host closed it, or
 * there were no more places): shown wherever they land, once.
 */
export default function RoomNoticeDialog() {
  const { state, dispatch } = useRoom();
  const notice = state.room.notice;
  if (!notice) return null;
  return (
    <AlertDialog
      open
      title={notice.title}
      message={notice.message}
      onConfirm={() => dispatch({ type: 'noticeSeen' })}
    />
  );
}
