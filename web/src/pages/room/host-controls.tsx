import { MAX_RESULT_COUNT } from '@forkvote/contracts';
import { Alert, Button, Card, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMe } from '../../api/endpoints';
import { useAuth } from '../../auth/auth-context';
import { AppButton } from '../../components/app-button';
import { CopyFeedback } from '../../components/copy-feedback';
import { ConfirmDialog } from '../../components/dialogs/dialogs';
import {
  forgetHandedOffSearchSettings,
  handedOffSearchSettings,
  SearchSettingsFields,
  useSearchSettings,
} from '../../components/search-settings';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { useCopyInvite } from '../../room/use-copy-invite';

/** The host's side of the waiting room: where and what to search, start voting, close the room. */
export function HostControls() {
  const { state, start, leave } = useRoom();
  const auth = useAuth();
  const navigate = useNavigate();
  const { data: me } = useMe(auth.isSignedIn);
  // Settings chosen on the discovery page before creating this session, if any.
  const [handedOff] = useState(handedOffSearchSettings);
  useEffect(forgetHandedOffSearchSettings, []);
  const settings = useSearchSettings(me, handedOff);
  const [onePerson, setOnePerson] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  // 'Invite Friends' in the One person! dialog copies the link, with the same feedback as the Invite button.
  const invite = useCopyInvite(state.room.waitingRoom?.waitingRoomId);

  const begin = async () => {
    setFormError(null);
    setStarting(true);
    try {
      const search = await settings.resolve();
      if ('error' in search) return setFormError(search.error);
      await start({ ...search.criteria, maxResultCount: MAX_RESULT_COUNT });
    } finally {
      setStarting(false);
    }
  };

  const onStart = () =>
    (state.room.waitingRoom?.users.length ?? 0) <= 1 ? setOnePerson(true) : void begin();

  return (
    <Card title="Search settings">
      {(formError || state.voting.error) && (
        <Alert
          type="error"
          showIcon
          message={formError ?? `Error: ${state.voting.error}`}
          className="fv-form-alert"
          role="alert"
        />
      )}
      {state.room.error && (
        <Alert type="error" showIcon message={state.room.error} className="fv-form-alert" role="alert" />
      )}
      <SearchSettingsFields settings={settings} />
      <Space wrap>
        <Button type="primary" size="large" onClick={onStart} loading={starting || state.voting.isLoading}>
          Start voting
        </Button>
        <AppButton variant="destructive" size="lg" onClick={() => setConfirmClose(true)}>
          Close Waiting Room
        </AppButton>
      </Space>
      <CopyFeedback {...invite} />

      <ConfirmDialog
        open={onePerson}
        title="One person!"
        message="You're the only person in the session. That's totally fine, but voting is more fun with friends. Invite them with the link or the waiting room ID."
        cancelLabel="Invite Friends"
        continueLabel="Continue with single person"
        onResult={(go) => {
          setOnePerson(false);
          if (go) void begin();
          else void invite.copy();
        }}
        onDismiss={() => setOnePerson(false)}
      />
      <ConfirmDialog
        open={confirmClose}
        title="Close the waiting room?"
        message="Everyone in the session will be sent back to the home page."
        continueLabel="Close Waiting Room"
        onResult={async (go) => {
          setConfirmClose(false);
          if (go) await leaveAndGoHome(navigate, leave);
        }}
      />
    </Card>
  );
}
