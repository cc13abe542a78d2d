import { popularityScore } from './osm.provider';

describe('popularityScore (OSM has no popularity: how well a place is documented)', () => {
  it('counts the signals a place has, and nothing else', () => {
    expect(popularityScore({})).toBe(0);
    expect(popularityScore({ name: 'Joe', amenity: 'restaurant' })).toBe(0);
    expect(
      popularityScore({ website: 'https://joe.example', cuisine: 'pizza', 'addr:street': 'Main St' }),
    ).toBe(3);
  });

  it('ignores an empty tag', () => {
    expect(popularityScore({ website: '', phone: '+1 555' })).toBe(1);
  });
});
