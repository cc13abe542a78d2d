import { useRef } from 'react';
import { AntdScope } from '../app/antd-scope';
import { AlertDialog } from '../components/dialogs/dialogs';
import { useRoom } from './room-context';
import type { RoomNotice } from './room-state';

/**
 * The dialog left behind when someone is out of a room for a reason worth saying (the host closed it, or
 * there were no more places): shown wherever they land, once. It stays mounted after the first notice, so
 * it closes with the dialog's own animation, still showing the text it closes on.
 */
export default function RoomNoticeDialog() {
  const { state, dispatch } = useRoom();
  const notice = state.room.notice;
  const last = useRef<RoomNotice | null>(notice);
  if (notice) last.current = notice;
  return (
    <AntdScope>
      <AlertDialog
        open={notice !== null}
        title={last.current?.title}
        message={last.current?.message ?? ''}
        onConfirm={() => dispatch({ type: 'noticeSeen' })}
      />
    </AntdScope>
  );
}
