import { FILTER_CATEGORIES } from './filter-categories';
import {
  defaultTypeFilter,
  excludeType,
  includeGroup,
  includeType,
  isGroupIncluded,
  removeExcludedType,
  removeIncludedType,
  selectAllRestaurants,
} from './filter-rules';
import { compactPlaceType, PLACE_TYPES, placeTypeLabel } from './place-types';

describe('filter rules (SPEC §4)', () => {
  const all = { included: ['restaurant'], excluded: [] };

  it('defaults to all restaurants, or to the saved preferences', () => {
    expect(defaultTypeFilter()).toEqual(all);
    expect(defaultTypeFilter({ restaurantTypesToInclude: [], restaurantTypesToExclude: ['bar'] })).toEqual({
      included: ['restaurant'],
      excluded: ['bar'],
    });
    expect(defaultTypeFilter({ restaurantTypesToInclude: ['cafe'], restaurantTypesToExclude: [] })).toEqual({
      included: ['cafe'],
      excluded: [],
    });
  });

  it('including a type removes it from excluded and drops the all-restaurants marker', () => {
    const filter = includeType({ included: ['restaurant'], excluded: ['cafe', 'bar'] }, 'cafe');
    expect(filter).toEqual({ included: ['cafe'], excluded: ['bar'] });
    expect(includeType(filter, 'cafe')).toEqual(filter);
  });

  it('selecting all restaurants clears the other selections', () => {
    expect(selectAllRestaurants({ included: ['cafe', 'pub'], excluded: ['bar'] })).toEqual(all);
    expect(includeType({ included: ['cafe'], excluded: ['bar'] }, 'restaurant')).toEqual(all);
  });

  it('excluding a type removes it from included', () => {
    expect(excludeType({ included: ['cafe', 'pub'], excluded: [] }, 'pub')).toEqual({
      included: ['cafe'],
      excluded: ['pub'],
    });
  });

  it('an empty include list reverts to all restaurants', () => {
    expect(removeIncludedType({ included: ['cafe'], excluded: [] }, 'cafe')).toEqual(all);
    expect(excludeType({ included: ['cafe'], excluded: [] }, 'cafe')).toEqual({
      included: ['restaurant'],
      excluded: ['cafe'],
    });
  });

  it('un-excludes a type', () => {
    expect(removeExcludedType({ included: ['restaurant'], excluded: ['bar', 'pub'] }, 'bar')).toEqual({
      included: ['restaurant'],
      excluded: ['pub'],
    });
  });

  it('includes and removes whole groups', () => {
    const asian = FILTER_CATEGORIES[0].groups[0].types;
    const on = includeGroup(all, asian);
    expect(isGroupIncluded(on, asian)).toBe(true);
    expect(on.included).not.toContain('restaurant');
    expect(includeGroup(on, asian, false)).toEqual(all);
  });
});

describe('place types and categories', () => {
  it('labels types in title case and gives the compact form', () => {
    expect(placeTypeLabel('fine_dining_restaurant')).toBe('Fine Dining Restaurant');
    expect(placeTypeLabel('bar')).toBe('Bar');
    expect(compactPlaceType('fine_dining_restaurant')).toBe('finediningrestaurant');
  });

  it('puts every type but the all-restaurants marker in at least one group, and only known types', () => {
    const grouped = new Set(FILTER_CATEGORIES.flatMap((c) => c.groups.flatMap((g) => g.types)));
    expect(PLACE_TYPES.filter((t) => t !== 'restaurant' && !grouped.has(t))).toEqual([]);
    expect([...grouped].filter((t) => !(PLACE_TYPES as readonly string[]).includes(t))).toEqual([]);
  });

  it('has the SPEC categories and cuisine subgroups', () => {
    expect(FILTER_CATEGORIES.map((c) => c.name)).toEqual([
      'Cuisine Type',
      'Dining Style',
      'Meal Type / Time',
      'Specialty Diet',
      'Drink-Focused',
      'Service Style',
    ]);
    expect(FILTER_CATEGORIES[0].groups.map((g) => g.name)).toEqual([
      'Asian',
      'European',
      'Middle Eastern & Mediterranean',
      'American & Western',
      'Latin American',
      'Indian',
      'African',
    ]);
  });

  it('lets the SPEC multi-group types sit in several groups', () => {
    const count = (type: string) =>
      FILTER_CATEGORIES.flatMap((c) => c.groups).filter((g) => (g.types as string[]).includes(type)).length;
    for (const type of [
      'cafe',
      'diner',
      'steak_house',
      'sushi_restaurant',
      'barbecue_restaurant',
      'ice_cream_shop',
      'pub',
      'meal_takeaway',
    ]) {
      expect(count(type)).toBeGreaterThan(1);
    }
  });
});
