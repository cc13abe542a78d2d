import { BellOutlined, CrownFilled, ShareAltOutlined } from '@ant-design/icons';
import { QRCodeSVG } from '@rc-component/qrcode';
import { lazy, Suspense, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { CopyFeedback } from '../../components/copy-feedback';
import { LoadingOverlay } from '../../components/loading-overlay';
import { PlainAlert } from '../../components/plain-alert';
import { PlainButton } from '../../components/plain-button';
import { ConnectionStatus } from '../../room/connection-status';
import { DecisionRuleCard } from '../../room/decision-parts';
import { PrivateLimitsCard } from '../../room/private-limits';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { inviteLink, useCopyInvite } from '../../room/use-copy-invite';
import { useRoomNavigation } from './use-room-navigation';
import { usePush } from '../../room/use-push';

/*
 * The waiting room is plain markup and loads no antd for a guest: the guest's whole journey stays light on a
 * phone. The host's controls (antd's form fields, in its theme) load for the host alone.
 */
const HostControls = lazy(async () => {
  const [{ HostControls: Controls }, { AntdScope }] = await Promise.all([
    import('./host-controls'),
    import('../../app/antd-scope'),
  ]);
  return {
    default: () => (
      <AntdScope>
        <Controls />
      </AntdScope>
    ),
  };
});
const NoRoomDialog = lazy(async () => ({ default: (await import('./no-room-dialog')).NoRoomDialog }));

export function WaitingRoomPage() {
  const { state, dispatch, leave } = useRoom();
  const room = state.room.waitingRoom;
  const navigate = useNavigate();
  useRoomNavigation('/waiting-room');

  // The 3-second "Get Ready to Vote!" overlay, then voting (SPEC §2); what is left of it for a late start.
  const { isTransitioningToVoting, overlayMs } = state.voting;
  useEffect(() => {
    if (!isTransitioningToVoting) return;
    const timer = setTimeout(() => dispatch({ type: 'setTransitioning', value: false }), overlayMs);
    return () => clearTimeout(timer);
  }, [isTransitioningToVoting, overlayMs, dispatch]);

  // The next pages' code is fetched while waiting: a start that comes during a network drop still opens
  // the voting page, and the results after it.
  useEffect(() => {
    void import('./voting-page').catch(() => undefined);
    void import('./results-page').catch(() => undefined);
  }, []);

  if (!room)
    return (
      <Suspense fallback={null}>
        <NoRoomDialog within="waiting room" />
      </Suspense>
    );
  const me = state.room.userId;

  return (
    <div className="fv-page">
      {state.voting.isTransitioningToVoting && (
        <LoadingOverlay topText="Get Ready to Vote!" bottomText="Loading restaurant options..." />
      )}
      <h1 className="fv-page-title">Waiting Room</h1>
      <div className="fv-waiting-grid">
        <div>
          <RoomCard />
          <DecisionRuleCard />
          <PrivateLimitsCard />
          <section className="fv-light-card fv-people" aria-labelledby="people-title">
            <h2 id="people-title" className="fv-card-title">
              People in the session ({room.users.length})
            </h2>
            <ul className="fv-people-list">
              {room.users.map((user) => (
                <li key={user.userId}>
                  <span className="fv-person-name">{user.userName}</span>
                  {user.userId === me && <span className="fv-tag fv-tag-you">You</span>}
                  {user.userId === room.createdBy.userId && (
                    <span className="fv-tag fv-tag-host">
                      <CrownFilled /> Host
                    </span>
                  )}
                </li>
              ))}
            </ul>
          </section>
        </div>
        <div>
          {state.room.isHost ? (
            <Suspense fallback={<div className="fv-host-controls-loading" aria-busy="true" />}>
              <HostControls />
            </Suspense>
          ) : (
            <section className="fv-light-card fv-light-card-body fv-stack fv-waiting-guest">
              <h2 className="fv-section-title">Waiting for host to start voting...</h2>
              <p className="fv-muted">
                You will move to the vote as soon as {room.createdBy.userName} starts it.
              </p>
              {state.room.error && (
                <PlainAlert type="error" message={state.room.error} className="fv-form-alert" role="alert" />
              )}
              <PlainButton
                type="danger"
                className="fv-more"
                onClick={() => leaveAndGoHome(navigate, leave)}
                loading={state.room.isLoading}
              >
                Leave Waiting Room
              </PlainButton>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

function RoomCard() {
  const { state } = useRoom();
  const room = state.room.waitingRoom!;
  const invite = useCopyInvite(room.waitingRoomId);
  return (
    <section className="fv-light-card fv-light-card-body fv-room-card fv-stack">
      <ConnectionStatus />
      <span className="fv-muted">Waiting room ID</span>
      <div className="fv-room-code" data-testid="room-code">
        {room.waitingRoomId}
      </div>
      <div className="fv-invite">
        <PlainButton icon={<ShareAltOutlined />} onClick={invite.copy}>
          Invite friends
        </PlainButton>
        <QRCodeSVG
          className="fv-qr"
          value={inviteLink(room.waitingRoomId)}
          size={112}
          level="M"
          aria-label="Invite QR code"
        />
      </div>
      <CopyFeedback {...invite} />
      <NotifyMe waitingRoomId={room.waitingRoomId} />
    </section>
  );
}

/** "Tell me when it's my turn": offered where the browser and the server can. */
function NotifyMe({ waitingRoomId }: { waitingRoomId: string }) {
  const push = usePush(waitingRoomId);
  if (!push.available && !push.status) return null;
  return (
    <div className="fv-notify">
      {push.available && push.status?.ok !== true && (
        <PlainButton icon={<BellOutlined />} onClick={push.subscribe} loading={push.busy}>
          Tell me when it's my turn
        </PlainButton>
      )}
      {push.status && (
        <span role="status" className={push.status.ok ? 'fv-muted' : 'fv-nudge-refused'}>
          {push.status.message}
        </span>
      )}
    </div>
  );
}
