import { ROOM_ID_LENGTH, ROOM_ID_PATTERN, ROOM_MESSAGES, USER_NAME_MAX } from '@forkvote/contracts';
import { lazy, ReactNode, Suspense, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAuth } from '../../auth/auth-context';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import { Field, FormCard, PlainForm } from '../../components/plain-form';
import { useRoom } from '../../room/room-context';
import { StartWithGroupList } from '../../room/saved-groups';

/*
 * The join page is where a guest on a phone first lands, so it is built light: plain markup, no antd (its
 * form, inputs and theme are most of a first load). The 'Invalid waiting room ID' dialog's code, antd's
 * Modal, loads when it is needed.
 */
const AlertDialog = lazy(async () => ({
  default: (await import('../../components/dialogs/dialogs')).ScopedAlertDialog,
}));

/** What the Waiting Room ID field holds: trimmed, upper-cased, at most 6 characters (SPEC §5, §9). */
export function normalizeRoomId(value: unknown): string {
  return typeof value === 'string' ? value.trim().toUpperCase().slice(0, ROOM_ID_LENGTH) : '';
}

/** SPEC §5: trimmed; empty and bad-format messages on blur. */
export function roomIdProblem(value: string): string | null {
  const id = value.trim();
  if (!id) return ROOM_MESSAGES.enterRoomId;
  return ROOM_ID_PATTERN.test(id) ? null : ROOM_MESSAGES.enterValidRoomId;
}

function nameProblem(value: string): string | null {
  return value.trim() ? null : ROOM_MESSAGES.nameRequired;
}

/** "Your Name": required, trimmed by the caller, at most USER_NAME_MAX; prefilled from the signed-in user. */
function useNameField() {
  const auth = useAuth();
  const [value, setValue] = useState(auth.payload?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const name = auth.payload?.name;
  useEffect(() => {
    if (name) setValue((current) => current || name);
  }, [name]);
  const field = (
    <Field label="Your Name" error={error}>
      {(id, errorId) => (
        <input
          id={id}
          className="fv-input"
          value={value}
          maxLength={USER_NAME_MAX}
          autoComplete="nickname"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => setValue(e.target.value)}
          onBlur={() => setError(nameProblem(value))}
        />
      )}
    </Field>
  );
  const check = () => {
    const problem = nameProblem(value);
    setError(problem);
    return problem ? null : value.trim();
  };
  return { field, check };
}

/** The join and create forms' frame: the page's h1, and the room call's error in a red box (SPEC §2). */
function RoomForm(props: {
  title: string;
  error: string | null;
  onSubmit: () => void;
  children: ReactNode;
  /** Below the form, outside it (its buttons submit nothing). */
  after?: ReactNode;
}) {
  return (
    <FormCard title={props.title}>
      {props.error && (
        <PlainAlert type="error" message={props.error} className="fv-form-alert" role="alert" />
      )}
      <PlainForm onSubmit={props.onSubmit}>{props.children}</PlainForm>
      {props.after}
    </FormCard>
  );
}

export function JoinSessionPage() {
  const [params] = useSearchParams();
  const { state, join } = useRoom();
  const navigate = useNavigate();
  const prefill = params.get('waitingRoomId') ?? '';
  const name = useNameField();
  const [roomId, setRoomId] = useState(ROOM_ID_PATTERN.test(prefill) ? normalizeRoomId(prefill) : '');
  const [roomIdError, setRoomIdError] = useState<string | null>(null);
  const [invalidAlert, setInvalidAlert] = useState(false);
  // Fetched on the first invalid submit, then kept mounted, so the dialog closes as dialogs do.
  const [dialogLoaded, setDialogLoaded] = useState(false);

  const submit = async () => {
    if (roomIdProblem(roomId)) {
      setDialogLoaded(true);
      return setInvalidAlert(true);
    }
    const userName = name.check();
    if (userName && (await join(roomId, userName))) navigate('/waiting-room');
  };

  return (
    <RoomForm title="Join a Session" error={state.room.error} onSubmit={() => void submit()}>
      {name.field}
      <Field label="Waiting Room ID" error={roomIdError}>
        {(id, errorId) => (
          <input
            id={id}
            value={roomId}
            className="fv-input fv-code-input"
            autoComplete="off"
            autoCapitalize="characters"
            aria-invalid={roomIdError ? true : undefined}
            aria-describedby={roomIdError ? errorId : undefined}
            // Trimmed first, then held to 6 characters: ' zz99zz ' pasted is 'ZZ99ZZ', not ' zz99z'.
            onChange={(e) => setRoomId(normalizeRoomId(e.target.value))}
            onBlur={() => setRoomIdError(roomIdProblem(roomId))}
          />
        )}
      </Field>
      <PlainButton type="primary" htmlType="submit" block size="large" loading={state.room.isLoading}>
        {state.room.isLoading ? 'Joining...' : 'Join Session'}
      </PlainButton>
      {dialogLoaded && (
        <Suspense fallback={null}>
          <AlertDialog
            open={invalidAlert}
            message={ROOM_MESSAGES.invalidRoomId}
            onConfirm={() => setInvalidAlert(false)}
          />
        </Suspense>
      )}
    </RoomForm>
  );
}

export function CreateSessionPage() {
  const { state, create } = useRoom();
  const navigate = useNavigate();
  const name = useNameField();
  const submit = async () => {
    const userName = name.check();
    if (userName && (await create(userName))) navigate('/waiting-room');
  };
  return (
    <RoomForm
      title="Create a New Session"
      error={state.room.error}
      onSubmit={() => void submit()}
      after={<StartWithGroupList />}
    >
      {name.field}
      <PlainButton type="primary" htmlType="submit" block size="large" loading={state.room.isLoading}>
        Create Session
      </PlainButton>
    </RoomForm>
  );
}
