import { CheckCircleOutlined, LikeOutlined, ShareAltOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { LinkButton } from '../../components/app-button';
import { useAuth } from '../../auth/auth-context';
import { CopyFeedback } from '../../components/copy-feedback';
import { SystemStatus } from '../../components/system-status';
import { useRoom } from '../../room/room-context';
import { useCopyInvite } from '../../room/use-copy-invite';

function SessionCard() {
  const { state, leave } = useRoom();
  const room = state.room.waitingRoom!;
  const invite = useCopyInvite(room.waitingRoomId);
  const count = room.users.length;
  const inResults = state.voting.currentState === 'results';
  return (
    <Card className="fv-session-card" data-testid="session-card">
      <Typography.Title level={2}>You're in a Session</Typography.Title>
      <Typography.Paragraph>
        Waiting room <strong>{room.waitingRoomId}</strong> ·{' '}
        {count === 1 ? '1 participant' : `${count} participants`}
      </Typography.Paragraph>
      <Space wrap>
        <LinkButton to="/waiting-room" type="primary" size="large">
          {inResults ? 'View Results' : 'Go to Session'}
        </LinkButton>
        {!inResults && (
          <>
            <Button size="large" icon={<ShareAltOutlined />} onClick={invite.copy}>
              Share
            </Button>
            <Button size="large" danger onClick={() => void leave()} loading={state.room.isLoading}>
              Leave Session
            </Button>
          </>
        )}
      </Space>
      <CopyFeedback {...invite} />
    </Card>
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
      {state.room.waitingRoom ? (
        <SessionCard />
      ) : (
        <section className="fv-hero">
          <Typography.Title level={1}>Never argue about where to eat again</Typography.Title>
          <Typography.Paragraph className="fv-hero-lead">
            Open a room, invite your friends, vote yes or no on nearby places, and eat where everyone agreed.
          </Typography.Paragraph>
          <Space wrap>
            <LinkButton to="/join-session" size="large">
              Join a Session
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
          </Space>
        </section>
      )}
      <section className="fv-steps" aria-labelledby="how-it-works">
        <Typography.Title level={2} id="how-it-works">
          How It Works
        </Typography.Title>
        <Row gutter={[24, 24]}>
          {steps.map((step, index) => (
            <Col xs={24} md={8} key={step.title}>
              <Card className="fv-step">
                <div className="fv-step-icon">{step.icon}</div>
                <Typography.Title level={4}>
                  {index + 1}. {step.title}
                </Typography.Title>
                <Typography.Paragraph type="secondary">{step.text}</Typography.Paragraph>
              </Card>
            </Col>
          ))}
        </Row>
      </section>
      <SystemStatus />
    </div>
  );
}
