import { CheckCircleOutlined, LikeOutlined, ShareAltOutlined, TeamOutlined } from '@ant-design/icons';
import { useEffect } from 'react';
import { LinkButton, PlainButton } from '../../components/plain-button';
import { useAuth } from '../../auth/auth-context';
import { CopyFeedback } from '../../components/copy-feedback';
import { useRoom } from '../../room/room-context';
import { useCopyInvite } from '../../room/use-copy-invite';
import { InvitationCards } from '../../room/saved-groups';

/*
 * Plain markup only: the home page is most people's first load, and loads none of antd.
 */
function SessionCard() {
  const { state, leave } = useRoom();
  const room = state.room.waitingRoom!;
  const invite = useCopyInvite(room.waitingRoomId);
  const count = room.users.length;
  const inResults = state.voting.currentState === 'results';
  return (
    <section className="fv-session-card fv-light-card fv-light-card-body" data-testid="session-card">
      <h1 className="fv-card-heading">You're in a Session</h1>
      <p>
        Waiting room <strong>{room.waitingRoomId}</strong> ·{' '}
        {count === 1 ? '1 participant' : `${count} participants`}
      </p>
      <div className="fv-actions">
        <LinkButton to="/waiting-room" type="primary" size="large">
          {inResults ? 'View Results' : 'Go to Session'}
        </LinkButton>
        {!inResults && (
          <>
            <PlainButton size="large" icon={<ShareAltOutlined />} onClick={invite.copy}>
              Share
            </PlainButton>
            <PlainButton
              size="large"
              type="danger"
              onClick={() => void leave()}
              loading={state.room.isLoading}
            >
              Leave Session
            </PlainButton>
          </>
        )}
      </div>
      <CopyFeedback {...invite} />
    </section>
  );
}

export function HomePage() {
  const auth = useAuth();
  const { state, dispatch } = useRoom();
  useEffect(() => {
    if (state.room.exitTo) dispatch({ type: 'exitHandled' });
  }, [state.room.exitTo, dispatch]);
  const steps = [
    {
      icon: <TeamOutlined />,
      title: 'Create a session',
      text: 'Open a room and share its 6-character ID with your friends.',
    },
    {
      icon: <LikeOutlined />,
      title: 'Vote on restaurants',
      text: 'Everyone says yes or no to the same five nearby places.',
    },
    {
      icon: <CheckCircleOutlined />,
      title: 'See the results',
      text: 'The places everyone approved win. Off you go.',
    },
  ];

  return (
    <div className="fv-page">
      {!state.room.waitingRoom && <InvitationCards />}
      {state.room.waitingRoom ? (
        <SessionCard />
      ) : (
        <section className="fv-hero">
          <h1>Never argue about where to eat again</h1>
          <p className="fv-hero-lead">
            Open a room, invite your friends, vote yes or no on nearby places, and eat where everyone agreed.
          </p>
          <div className="fv-actions">
            <LinkButton to="/join-session" size="large">
              Join a Session
            </LinkButton>
            <LinkButton to="/places" size="large">
              Discover Places
            </LinkButton>
            {!auth.isSignedIn && (
              <LinkButton to="/pricing" size="large" type="primary">
                Start Your Free Trial
              </LinkButton>
            )}
            {auth.canCreate && (
              <LinkButton to="/create-session" size="large" type="primary">
                Create a Session
              </LinkButton>
            )}
          </div>
        </section>
      )}
      <section className="fv-steps" aria-labelledby="how-it-works">
        <h2 id="how-it-works">How It Works</h2>
        <ol className="fv-step-list">
          {steps.map((step, index) => (
            <li className="fv-step fv-light-card" key={step.title}>
              <div className="fv-step-icon">{step.icon}</div>
              <h3>
                {index + 1}. {step.title}
              </h3>
              <p className="fv-muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
