import { CheckCircleFilled, EnvironmentOutlined, TrophyFilled } from '@ant-design/icons';
import {
  closestToUnanimous,
  resultsHeadline,
  ROOM_MESSAGES,
  type Ballot,
  type BallotsResult,
} from '@forkvote/contracts';
import { Alert, Button, Card, Col, List, Row, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/dialogs/dialogs';
import { PlaceFacts } from '../../components/place-facts';
import { ConnectionStatus } from '../../room/connection-status';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { NoRoomDialog } from './no-room-dialog';
import { useRoomNavigation } from './use-room-navigation';

function WinnerCard({ ballot, voters }: { ballot: Ballot; voters: number }) {
  return (
    <Card className="fv-winner" data-testid="winner-card">
      <Space direction="vertical" size={4}>
        <Space>
          <TrophyFilled className="fv-trophy" />
          <Typography.Title level={3} className="fv-place-name">
            {ballot.place.displayName.text}
          </Typography.Title>
        </Space>
        <Typography.Text type="secondary">
          {ballot.place.shortFormattedAddress || ballot.place.formattedAddress}
        </Typography.Text>
        <PlaceFacts place={ballot.place} />
        <Typography.Text>
          <CheckCircleFilled className="fv-ok" /> {ballot.upVotes} of {voters} votes · {ballot.approval}%
          approval
        </Typography.Text>
        <a className="fv-maps-link" href={ballot.place.googleMapsUri} target="_blank" rel="noreferrer">
          <EnvironmentOutlined /> Open in maps
        </a>
      </Space>
    </Card>
  );
}

/**
 * With no unanimous winner: the places that came closest, ranked, set apart from winners (no trophy, its
 * own heading) so nobody mistakes them for a decision everyone made.
 */
function ClosestToUnanimous({ result }: { result: BallotsResult }) {
  const closest = closestToUnanimous(result);
  if (closest.length === 0) return null;
  return (
    <section className="fv-closest" aria-labelledby="closest-title" data-testid="closest">
      <h2 id="closest-title">Closest to unanimous</h2>
      <p className="fv-muted">Nobody agreed on everything. These came nearest:</p>
      <ol className="fv-closest-list">
        {closest.map((ballot, index) => (
          <li key={ballot.placeId} className="fv-light-card">
            <span className="fv-rank" aria-hidden="true">
              {index + 1}
            </span>
            <div>
              <strong>{ballot.place.displayName.text}</strong>
              <div className="fv-muted">
                {ballot.upVotes} of {result.voterCount} said yes · {ballot.approval}% approval
              </div>
              <PlaceFacts place={ballot.place} />
              <a className="fv-maps-link" href={ballot.place.googleMapsUri} target="_blank" rel="noreferrer">
                <EnvironmentOutlined /> Open in maps
              </a>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function ResultsPage() {
  const { state, nextBatch, leave } = useRoom();
  const navigate = useNavigate();
  useRoomNavigation('/results');
  const [details, setDetails] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  if (!state.room.waitingRoom) return <NoRoomDialog within="session" />;
  const result = state.voting.ballots;
  const winners = result ? result.ballots.filter((b) => result.winners.includes(b.placeId)) : [];
  const withVotes = result?.ballots.filter((b) => b.upVotes + b.downVotes > 0) ?? [];
  const withoutVotes = result?.ballots.filter((b) => b.upVotes + b.downVotes === 0) ?? [];

  // SPEC §4: with no places left the host leaves (which closes the room for everyone), then sees the dialog.
  const more = async () => {
    if ((await nextBatch()) === 'none') {
      await leaveAndGoHome(navigate, leave, { title: 'No more places', message: ROOM_MESSAGES.noMorePlaces });
    }
  };

  return (
    <div className="fv-page">
      <Typography.Title>Results</Typography.Title>
      <ConnectionStatus />
      {state.voting.error && (
        <Alert type="error" showIcon message={`Error: ${state.voting.error}`} className="fv-form-alert" />
      )}
      <Typography.Title level={2} data-testid="results-headline">
        {resultsHeadline(winners.length)}
      </Typography.Title>
      {winners.length > 0 && (
        <Row gutter={[16, 16]}>
          {winners.map((ballot) => (
            <Col xs={24} md={12} key={ballot.placeId}>
              <WinnerCard ballot={ballot} voters={result!.voterCount} />
            </Col>
          ))}
        </Row>
      )}
      {result && winners.length === 0 && <ClosestToUnanimous result={result} />}
      {state.room.isHost && winners.length === 0 && (
        <Button
          type="primary"
          size="large"
          className="fv-more"
          onClick={more}
          loading={state.voting.isLoading}
        >
          Click here to vote on more restaurants
        </Button>
      )}
      {state.room.error && (
        <Alert type="error" showIcon message={state.room.error} className="fv-form-alert" role="alert" />
      )}
      <Button
        danger
        className="fv-more"
        // The host's leave closes the room for everyone: asked first, as 'Close Waiting Room' is.
        onClick={() => (state.room.isHost ? setConfirmClose(true) : leaveAndGoHome(navigate, leave))}
        loading={state.room.isLoading}
      >
        {state.room.isHost ? 'Close Session' : 'Leave Session'}
      </Button>
      <ConfirmDialog
        open={confirmClose}
        title="Close the session?"
        message="Everyone in the session will be sent back to the home page."
        continueLabel="Close Session"
        onResult={async (go) => {
          setConfirmClose(false);
          if (go) await leaveAndGoHome(navigate, leave);
        }}
      />
      <div className="fv-details-toggle">
        <Switch checked={details} onChange={setDetails} id="details" />{' '}
        <label htmlFor="details">Show voting details</label>
      </div>
      {details && result && (
        <List
          className="fv-details"
          dataSource={[...withVotes, ...withoutVotes]}
          renderItem={(ballot) => (
            <List.Item>
              <Space direction="vertical" size={0}>
                <strong>{ballot.place.displayName.text}</strong>
                <Typography.Text type="secondary">
                  {ballot.upVotes} yes · {ballot.downVotes} no · {ballot.approval}% approval
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
    </div>
  );
}
