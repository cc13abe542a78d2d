import type { Place } from './places';
import fc from 'fast-check';
import {
  ballotsResultOf,
  batchOf,
  closestToUnanimous,
  computeBallots,
  resultsHeadline,
  ROOM_ID_PATTERN,
} from './room-rules';
import { formatCount, formatDistance, matchesPrice } from './search-rules';

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

describe('closest to unanimous', () => {
  const rated = (id: string, rating?: number): Place => ({ ...place(id), ...(rating ? { rating } : {}) });
  const votesFor = (ups: Record<string, number>, voters: number) =>
    Object.entries(ups).flatMap(([placeId, count]) =>
      Array.from({ length: voters }, (_, i) => ({
        userId: `u${i}`,
        placeId,
        voteType: (i < count ? 'up' : 'down') as 'up' | 'down',
      })),
    );

  it('ranks by approval, then up votes, then rating, and leaves out places nobody approved', () => {
    const places = [rated('a', 4.1), rated('b', 4.8), rated('c'), rated('d', 3.9), rated('e', 5)];
    // 4 voters: a and b 3 yes (75%), c 3 yes (75%, no rating), d 2 yes, e none.
    const result = computeBallots(0, places, votesFor({ a: 3, b: 3, c: 3, d: 2, e: 0 }, 4));
    expect(result.winners).toEqual([]);
    expect(closestToUnanimous(result).map((b) => b.placeId)).toEqual(['b', 'a', 'c']);
    expect(closestToUnanimous(result, 5).map((b) => b.placeId)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('is empty when there is a winner, and when nobody said yes to anything', () => {
    const places = ['a', 'b'].map((id) => rated(id));
    expect(closestToUnanimous(computeBallots(0, places, votesFor({ a: 2, b: 1 }, 2)))).toEqual([]);
    expect(closestToUnanimous(computeBallots(0, places, votesFor({ a: 0, b: 0 }, 2)))).toEqual([]);
  });

  it('never ranks a place above one with more approval (any votes)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 5, maxLength: 5 }),
        fc.array(fc.option(fc.double({ min: 1, max: 5, noNaN: true }), { nil: undefined }), {
          minLength: 5,
          maxLength: 5,
        }),
        (voters, ups, ratings) => {
          const places = ups.map((_, i) => rated(`p${i}`, ratings[i]));
          const counts = Object.fromEntries(ups.map((u, i) => [`p${i}`, Math.min(u, voters - 1)]));
          const ranked = closestToUnanimous(computeBallots(0, places, votesFor(counts, voters)), 5);
          for (let i = 1; i < ranked.length; i++) {
            expect(ranked[i - 1].approval).toBeGreaterThanOrEqual(ranked[i].approval);
          }
          expect(ranked.every((b) => b.upVotes > 0)).toBe(true);
        },
      ),
    );
  });
});

describe('price filter and distances', () => {
  it('keeps places of the chosen levels and places of unknown price', () => {
    expect(matchesPrice('PRICE_LEVEL_MODERATE', ['PRICE_LEVEL_MODERATE'])).toBe(true);
    expect(matchesPrice('PRICE_LEVEL_EXPENSIVE', ['PRICE_LEVEL_MODERATE'])).toBe(false);
    expect(matchesPrice('PRICE_LEVEL_FREE', ['PRICE_LEVEL_INEXPENSIVE'])).toBe(true);
    expect(matchesPrice(undefined, ['PRICE_LEVEL_MODERATE'])).toBe(true);
    expect(matchesPrice('PRICE_LEVEL_UNSPECIFIED', ['PRICE_LEVEL_MODERATE'])).toBe(true);
    expect(matchesPrice('PRICE_LEVEL_EXPENSIVE', [])).toBe(true);
  });

  it('shows distances in the chosen unit', () => {
    expect(formatDistance(1609.34, 'miles')).toBe('1.0 mi');
    expect(formatDistance(2500, 'km')).toBe('2.5 km');
    expect(formatDistance(32_000, 'km')).toBe('32 km');
  });

  it('writes counts as en-US does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });
});

describe('ballotsResultOf', () => {
  it("computes a batch's input as computeBallots does, and passes results as they are", () => {
    const places = [{ id: 'a' }, { id: 'b' }] as never[];
    const votes = [
      { userId: 'u1', placeId: 'a', voteType: 'up' as const },
      { userId: 'u1', placeId: 'b', voteType: 'down' as const },
    ];
    const result = computeBallots(3, places, votes);
    expect(ballotsResultOf({ batchIndex: 3, places, votes })).toEqual(result);
    expect(ballotsResultOf(result)).toBe(result);
  });
});
