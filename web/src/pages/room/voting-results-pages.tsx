import {
  CheckCircleFilled,
  DislikeOutlined,
  EnvironmentOutlined,
  LikeOutlined,
  TrophyFilled,
} from '@ant-design/icons';
import {
  batchOf,
  placeTypeLabel,
  resultsHeadline,
  ROOM_MESSAGES,
  type Ballot,
  type Place,
} from '@forkvote/contracts';
import { Alert, Button, Card, Col, List, Radio, Row, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { StatusTag } from '../../components/status-tag';
import { ConnectionStatus } from '../../room/connection-status';
import { leaveAndGoHome, useRoom } from '../../room/room-context';
import { useRoomNavigation } from './use-room-navigation';
import { NoRoomDialog } from './no-room-dialog';

const typeLabel = (place: Place) =>
  placeTypeLabel(
    place.primaryType ?? place.types.find((t) => t !== 'restaurant') ?? place.types[0] ?? 'restaurant',
  );

function PlaceCard({
  place,
  choice,
  onChoose,
}: {
  place: Place;
  choice?: 'up' | 'down';
  onChoose?: (c: 'up' | 'down') => void;
}) {
  return (
    <Card className={`fv-place${choice ? ` fv-place-${choice}` : ''}`} data-testid="place-card">
      <Space direction="vertical" size={4} className="fv-full-width">
        <Typography.Title level={2} className="fv-place-name">
          {place.displayName.text}
        </Typography.Title>
        <Tag className="fv-tag-brand">{typeLabel(place)}</Tag>
        <Typography.Text type="secondary">
          {place.shortFormattedAddress || place.formattedAddress}
        </Typography.Text>
        <a href={place.googleMapsUri} target="_blank" rel="noreferrer">
          <EnvironmentOutlined /> Open in maps
        </a>
        {onChoose && (
          <Radio.Group
            value={choice}
            onChange={(e) => onChoose(e.target.value)}
            optionType="button"
            buttonStyle="solid"
            aria-label={`Vote on ${place.displayName.text}`}
          >
            <Radio.Button value="up">
              <LikeOutlined /> Yes
            </Radio.Button>
            <Radio.Button value="down">
              <DislikeOutlined /> No
            </Radio.Button>
          </Radio.Group>
        )}
      </Space>
    </Card>
  );
}

export function VotingPage() {
  const { state, vote } = useRoom();
  useRoomNavigation('/voting');
  const [choices, setChoices] = useState<Record<string, 'up' | 'down'>>({});
  const batch = batchOf(state.voting.places, state.voting.batchIndex);
  useEffect(() => setChoices({}), [state.voting.batchIndex]);
  if (!state.room.waitingRoom) return <NoRoomDialog within="session" />;

  const users = state.room.waitingRoom.users;
  const complete = batch.length > 0 && batch.every((p) => choices[p.id]);
  const submit = () => vote(batch.map((p) => ({ placeId: p.id, voteType: choices[p.id] })));

  return (
    <div className="fv-page">
      <Typography.Title>Time to Vote!</Typography.Title>
      <ConnectionStatus />
      {state.voting.demo && (
        <Alert
          type="info"
          showIcon
          message="Demo places: no places provider is reachable, so these are made up."
          className="fv-form-alert"
        />
      )}
      {state.voting.voted ? (
        <Card>
          <Alert
            type="success"
            showIcon
            message="Votes submitted successfully! Waiting for others to submit their votes."
          />
          <Typography.Title level={2} className="fv-progress-title">
            Voting Progress
          </Typography.Title>
          <List
            dataSource={users}
            renderItem={(user) => {
              const done = state.voting.usersVoted.includes(user.userId);
              return (
                <List.Item>
                  <span>{user.userName}</span>
                  <StatusTag up={done ? true : null}>{done ? 'Voted' : 'Pending'}</StatusTag>
                </List.Item>
              );
            }}
          />
        </Card>
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            Batch {state.voting.batchIndex + 1}: say yes to every place you would happily go to.
          </Typography.Paragraph>
          <Row gutter={[16, 16]}>
            {batch.map((place) => (
              <Col xs={24} sm={12} lg={8} key={place.id}>
                <PlaceCard
                  place={place}
                  choice={choices[place.id]}
                  onChoose={(c) => setChoices({ ...choices, [place.id]: c })}
                />
              </Col>
            ))}
          </Row>
          <Button
            type="primary"
            size="large"
            className="fv-submit-votes"
            disabled={!complete}
            loading={state.voting.isLoading}
            onClick={submit}
          >
            Submit Votes
          </Button>
          {/* Beside Submit, where the person is looking when it fails, not at the top of a long page. */}
          {state.voting.error && (
            <Alert
              type="error"
              showIcon
              message={`Error: ${state.voting.error}`}
              className="fv-vote-error"
              role="alert"
            />
          )}
        </>
      )}
    </div>
  );
}

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
        <Typography.Text>
          <CheckCircleFilled className="fv-ok" /> {ballot.upVotes} of {voters} votes · {ballot.approval}%
          approval
        </Typography.Text>
        <a href={ballot.place.googleMapsUri} target="_blank" rel="noreferrer">
          <EnvironmentOutlined /> Open in maps
        </a>
      </Space>
    </Card>
  );
}

export function ResultsPage() {
  const { state, nextBatch, leave } = useRoom();
  const navigate = useNavigate();
  useRoomNavigation('/results');
  const [details, setDetails] = useState(false);
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
      <Row gutter={[16, 16]}>
        {winners.map((ballot) => (
          <Col xs={24} md={12} key={ballot.placeId}>
            <WinnerCard ballot={ballot} voters={result!.voterCount} />
          </Col>
        ))}
      </Row>
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
      <Button
        danger
        className="fv-more"
        onClick={() => leaveAndGoHome(navigate, leave)}
        loading={state.room.isLoading}
      >
        {state.room.isHost ? 'Close Session' : 'Leave Session'}
      </Button>
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
