import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { PrivateLimitsDto } from './limits';
import {
  applyLimits,
  fitsLimits,
  leftOutText,
  mergeLimits,
  NO_LIMITS,
  osmDiet,
  PrivateLimits,
} from './limits-rules';
import type { Place } from './places';

const place = (id: string, extra: Partial<Place> = {}): Place => ({
  id,
  displayName: { text: id },
  formattedAddress: '',
  shortFormattedAddress: '',
  googleMapsUri: '',
  types: ['restaurant'],
  ...extra,
});
const limits = (extra: Partial<PrivateLimits>): PrivateLimits => ({ ...NO_LIMITS, ...extra });

describe('private limits', () => {
  it('leaves out what is known to fail, and keeps what is not known', () => {
    const vegan = limits({ diet: 'vegan' });
    const vegetarian = limits({ diet: 'vegetarian' });
    expect(fitsLimits(place('a'), vegan)).toBe(true);
    expect(fitsLimits(place('b', { diet: { vegetarian: true } }), vegan)).toBe(true);
    expect(fitsLimits(place('c', { diet: { vegan: false } }), vegan)).toBe(false);
    expect(fitsLimits(place('d', { diet: { vegetarian: false } }), vegan)).toBe(false);
    expect(fitsLimits(place('e', { diet: { vegan: false } }), vegetarian)).toBe(true);
    expect(fitsLimits(place('f', { diet: { vegetarian: false } }), vegetarian)).toBe(false);

    const moderate = limits({ maxPriceLevel: 'PRICE_LEVEL_MODERATE' });
    expect(fitsLimits(place('g', { priceLevel: 'PRICE_LEVEL_MODERATE' }), moderate)).toBe(true);
    expect(fitsLimits(place('h', { priceLevel: 'PRICE_LEVEL_EXPENSIVE' }), moderate)).toBe(false);
    expect(fitsLimits(place('i', { priceLevel: 'PRICE_LEVEL_UNSPECIFIED' }), moderate)).toBe(true);
    expect(fitsLimits(place('j'), moderate)).toBe(true);

    const near = limits({ maxDistanceMeters: 1000 });
    expect(fitsLimits(place('k', { distanceMeters: 1000 }), near)).toBe(true);
    expect(fitsLimits(place('l', { distanceMeters: 1001 }), near)).toBe(false);
  });

  it('keeps the first places that fit everyone, counting those left out before the last', () => {
    const places = ['a', 'b', 'c', 'd', 'e'].map((id, i) =>
      place(id, { distanceMeters: i % 2 ? 5000 : 100 }),
    );
    const near = limits({ maxDistanceMeters: 1000 });
    expect(applyLimits(places, [NO_LIMITS, near])).toEqual({
      kept: [places[0], places[2], places[4]],
      leftOut: 2,
    });
    expect(applyLimits(places, [near], 2)).toEqual({ kept: [places[0], places[2]], leftOut: 1 });
    expect(applyLimits(places, [NO_LIMITS])).toEqual({ kept: places, leftOut: 0 });
    expect(leftOutText(1)).toBe('1 place left out by private limits');
    expect(leftOutText(3)).toBe('3 places left out by private limits');
  });

  it('merges a change, where null clears and absent keeps', () => {
    const base = limits({ diet: 'vegan', maxDistanceMeters: 800 });
    expect(mergeLimits(base, { maxDistanceMeters: null })).toEqual(limits({ diet: 'vegan' }));
    expect(mergeLimits(null, { diet: 'vegetarian' })).toEqual(limits({ diet: 'vegetarian' }));
  });

  it('reads OpenStreetMap diet tags', () => {
    expect(['yes', 'only', 'limited', 'no', 'maybe', undefined].map(osmDiet)).toEqual([
      true,
      true,
      true,
      false,
      undefined,
      undefined,
    ]);
  });

  it('refuses what is no limit, with one message', () => {
    const check = (body: object) =>
      validateSync(plainToInstance(PrivateLimitsDto, { waitingRoomId: 'ABC123', ...body })).flatMap((e) =>
        Object.values(e.constraints ?? {}),
      );
    expect(check({ diet: null, maxPriceLevel: null, maxDistanceMeters: null })).toEqual([]);
    expect(
      check({ diet: 'vegan', maxPriceLevel: 'PRICE_LEVEL_EXPENSIVE', maxDistanceMeters: '1609' }),
    ).toEqual([]);
    expect(check({ diet: 'keto' })).toEqual(['Diet must be vegetarian or vegan']);
    expect(check({ maxDistanceMeters: 99 })).toHaveLength(1);
  });
});
