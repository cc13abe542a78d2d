import fc from 'fast-check';
import type { Place } from './places';
import { computeBallots, headlineFor, resultsHeadline } from './room-rules';
import { drawCandidates, holdoutPending, holdoutQuestions, nextQuarterHour } from './decision-rules';

const place = (id: string): Place => ({
  id,
  displayName: { text: id.toUpperCase() },
  formattedAddress: '',
  shortFormattedAddress: '',
  googleMapsUri: '',
  types: ['restaurant'],
});
const places = ['a', 'b', 'c', 'd', 'e'].map(place);

/** Ballots as rows: `yes[user]` lists the places that user said yes to. */
const votesOf = (yes: Record<string, string[]>) =>
  Object.entries(yes).flatMap(([userId, ups]) =>
    places.map((p) => ({
      userId,
      placeId: p.id,
      voteType: ups.includes(p.id) ? ('up' as const) : ('down' as const),
    })),
  );

describe('decision rules', () => {
  // a: 3 of 4, b: 2 of 4, c: 3 of 4, d: 1 of 4, e: none.
  const votes = votesOf({ u1: ['a', 'b', 'c'], u2: ['a', 'c'], u3: ['a', 'b'], u4: ['c', 'd'] });

  it('picks by each rule on the same ballots', () => {
    expect(computeBallots(0, places, votes).winners).toEqual([]);
    expect(computeBallots(0, places, votes, 'majority').winners.sort()).toEqual(['a', 'c']);
    expect(computeBallots(0, places, votes, 'most').winners.sort()).toEqual(['a', 'c']);
    // b has exactly half: not more than half.
    expect(computeBallots(0, places, votesOf({ u1: ['b'], u2: [] }), 'majority').winners).toEqual([]);
    expect(computeBallots(0, places, votesOf({ u1: [], u2: [] }), 'most').winners).toEqual([]);
  });

  it('keeps the SPEC’s unanimous rule and headlines as the default', () => {
    fc.assert(
      fc.property(
        fc.array(fc.subarray(['a', 'b', 'c', 'd', 'e']), { minLength: 1, maxLength: 6 }),
        (rows) => {
          const v = votesOf(Object.fromEntries(rows.map((ups, i) => [`u${i}`, ups])));
          const result = computeBallots(0, places, v);
          const everyone = places.filter((p) => rows.every((ups) => ups.includes(p.id))).map((p) => p.id);
          expect(result.winners.sort()).toEqual(everyone.sort());
          expect(headlineFor(result.winners.length)).toBe(resultsHeadline(result.winners.length));
        },
      ),
    );
    expect([0, 1, 2].map((n) => headlineFor(n))).toEqual([
      'No unanimous winner',
      'We have a unanimous winner!',
      '2 places won unanimously!',
    ]);
  });

  it('asks the holdouts of the near-winners, and counts an agreed place as unanimous', () => {
    const result = computeBallots(0, places, votes);
    const questions = holdoutQuestions(result);
    // a and c miss one voter each, b misses half; d misses three of four and is not asked about.
    expect(questions.map((q) => [q.placeId, q.userIds])).toEqual([
      ['a', ['u4']],
      ['c', ['u3']],
      ['b', ['u2', 'u4']],
    ]);
    expect(holdoutPending({ questions, answered: [{ placeId: 'a', userId: 'u4' }], ended: false })).toEqual([
      'u3',
      'u2',
      'u4',
    ]);
    const after = computeBallots(0, places, votes, 'unanimous', ['c']);
    expect(after.winners).toEqual(['c']);
    expect(holdoutQuestions(after)).toEqual([]);
  });

  it('draws among several winners, or the closest with none, never with one', () => {
    expect(drawCandidates(computeBallots(0, places, votes, 'majority')).sort()).toEqual(['a', 'c']);
    expect(drawCandidates(computeBallots(0, places, votes)).sort()).toEqual(['a', 'b', 'c']);
    expect(drawCandidates(computeBallots(0, places, votes, 'unanimous', ['a']))).toEqual([]);
  });

  it('sets a plan at the next quarter hour', () => {
    expect(nextQuarterHour(new Date('2026-11-27T12:07:30Z')).toISOString()).toBe('2026-11-27T12:15:00.000Z');
    expect(nextQuarterHour(new Date('2026-11-27T12:15:00Z')).toISOString()).toBe('2026-11-27T12:30:00.000Z');
  });
});
