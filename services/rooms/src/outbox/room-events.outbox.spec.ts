import { computeBallots, ROOM_EVENTS } from '@forkvote/contracts';
import { toPublished } from './room-events.outbox';

describe('toPublished', () => {
  const places = ['a', 'b'].map((id) => ({ id, name: id.toUpperCase() })) as never[];
  const votes = [
    { userId: 'u1', placeId: 'a', voteType: 'up' as const },
    { userId: 'u1', placeId: 'b', voteType: 'down' as const },
    { userId: 'u2', placeId: 'a', voteType: 'up' as const },
    { userId: 'u2', placeId: 'b', voteType: 'up' as const },
  ];

  it("computes BALLOTS_SUBMITTED's results from the batch's places and votes the outbox holds", () => {
    const published = toPublished(ROOM_EVENTS.ballotsSubmitted, { batchIndex: 2, places, votes });
    expect(published).toEqual(computeBallots(2, places, votes));
    expect(published).toMatchObject({ batchIndex: 2, voterCount: 2, winners: ['a'] });
  });

  it('passes results written before the relay computed them, and every other event, as they are', () => {
    const result = computeBallots(0, places, votes);
    expect(toPublished(ROOM_EVENTS.ballotsSubmitted, result)).toBe(result);
    const voted = { userId: 'u1', usersVoted: ['u1'] };
    expect(toPublished(ROOM_EVENTS.userVoted, voted)).toBe(voted);
  });
});
