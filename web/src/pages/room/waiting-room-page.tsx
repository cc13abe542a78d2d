import { CrownFilled, ShareAltOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, List, QRCode, Row, Space, Tag, Typography } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { CopyFeedback } from '../../components/copy-feedback';
import { LoadingOverlay } from '../../components/loading-overlay';
import { ConnectionStatus } from '../../room/connection-status';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { inviteLink, useCopyInvite } from '../../room/use-copy-invite';
import { HostControls } from './host-controls';
import { NoRoomDialog } from './no-room-dialog';
import { useRoomNavigation } from './use-room-navigation';

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

  if (!room) return <NoRoomDialog within="waiting room" />;
  const me = state.room.userId;

  return (
    <div className="fv-page">
      {state.voting.isTransitioningToVoting && (
        <LoadingOverlay topText="Get Ready to Vote!" bottomText="Loading restaurant options..." />
      )}
      <Typography.Title>Waiting Room</Typography.Title>
      <Row gutter={[24, 24]}>
        <Col xs={24} lg={10}>
          <RoomCard />
          <Card className="fv-people" title={`People in the session (${room.users.length})`}>
            <List
              dataSource={room.users}
              renderItem={(user) => (
                <List.Item>
                  <Space>
                    <span className="fv-person-name">{user.userName}</span>
                    {user.userId === me && <Tag className="fv-tag-you">You</Tag>}
                    {user.userId === room.createdBy.userId && (
                      <Tag icon={<CrownFilled />} className="fv-tag-host">
                        Host
                      </Tag>
                    )}
                  </Space>
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          {state.room.isHost ? (
            <HostControls />
          ) : (
            <Card>
              <Typography.Title level={2}>Waiting for host to start voting...</Typography.Title>
              <Typography.Paragraph type="secondary">
                You will move to the vote as soon as {room.createdBy.userName} starts it.
              </Typography.Paragraph>
              {state.room.error && (
                <Alert
                  type="error"
                  message={state.room.error}
                  showIcon
                  className="fv-form-alert"
                  role="alert"
                />
              )}
              <Button danger onClick={() => leaveAndGoHome(navigate, leave)} loading={state.room.isLoading}>
                Leave Waiting Room
              </Button>
            </Card>
          )}
        </Col>
      </Row>
    </div>
  );
}

function RoomCard() {
  const { state } = useRoom();
  const room = state.room.waitingRoom!;
  const invite = useCopyInvite(room.waitingRoomId);
  return (
    <Card className="fv-room-card">
      <Space direction="vertical" size="small" className="fv-full-width">
        <ConnectionStatus />
        <Typography.Text type="secondary">Waiting room ID</Typography.Text>
        <div className="fv-room-code" data-testid="room-code">
          {room.waitingRoomId}
        </div>
        <Space align="start" wrap>
          <Button icon={<ShareAltOutlined />} onClick={invite.copy}>
            Invite friends
          </Button>
          <QRCode
            value={inviteLink(room.waitingRoomId)}
            size={112}
            bordered={false}
            aria-label="Invite QR code"
          />
        </Space>
        <CopyFeedback {...invite} />
      </Space>
    </Card>
  );
}
