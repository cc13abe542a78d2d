import type { Place } from './places';
import { batchOf, computeBallots, resultsHeadline, ROOM_ID_PATTERN } from './room-rules';

const place = (id: string): Place => ({
  id,
  displayName: { text: id },
  formattedAddress: '',
  shortFormattedAddress: '',
  googleMapsUri: '',
  types: ['restaurant'],
});

describe('winner logic (SPEC §4)', () => {
  const places = ['a', 'b', 'c', 'd', 'e'].map(place);

  it('makes a place a winner only when every voter said yes', () => {
    const result = computeBallots(0, places, [
      { userId: 'u1', placeId: 'a', voteType: 'up' },
      { userId: 'u2', placeId: 'a', voteType: 'up' },
      { userId: 'u1', placeId: 'b', voteType: 'up' },
      { userId: 'u2', placeId: 'b', voteType: 'down' },
    ]);
    expect(result.voterCount).toBe(2);
    expect(result.winners).toEqual(['a']);
    expect(result.ballots[0]).toMatchObject({ placeId: 'a', upVotes: 2, downVotes: 0, approval: 100 });
    expect(result.ballots[1]).toMatchObject({ placeId: 'b', upVotes: 1, downVotes: 1, approval: 50 });
  });

  it('lists places with up votes first, then the rest', () => {
    const result = computeBallots(0, places, [
      { userId: 'u1', placeId: 'e', voteType: 'up' },
      { userId: 'u1', placeId: 'a', voteType: 'down' },
    ]);
    expect(result.ballots.map((b) => b.placeId)).toEqual(['e', 'a', 'b', 'c', 'd']);
  });

  it('has several winners when several places are approved by all, and none when nobody agrees', () => {
    const all = (placeId: string) =>
      ['u1', 'u2', 'u3'].map((userId) => ({ userId, placeId, voteType: 'up' as const }));
    expect(computeBallots(1, places, [...all('c'), ...all('d')]).winners.sort()).toEqual(['c', 'd']);
    expect(computeBallots(1, places, []).winners).toEqual([]);
  });

  it('writes the three headlines', () => {
    expect(resultsHeadline(0)).toBe('No unanimous winner');
    expect(resultsHeadline(1)).toBe('We have a unanimous winner!');
    expect(resultsHeadline(3)).toBe('3 places won unanimously!');
  });

  it('cuts places into batches of 5', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => i);
    expect(batchOf(twelve, 0)).toEqual([0, 1, 2, 3, 4]);
    expect(batchOf(twelve, 2)).toEqual([10, 11]);
    expect(batchOf(twelve, 3)).toEqual([]);
  });

  it('accepts exactly 6 letters or digits as a room id', () => {
    expect(ROOM_ID_PATTERN.test('AB12cd')).toBe(true);
    expect(ROOM_ID_PATTERN.test('AB12c')).toBe(false);
    expect(ROOM_ID_PATTERN.test('AB12cd3')).toBe(false);
    expect(ROOM_ID_PATTERN.test('AB-2cd')).toBe(false);
  });
});
