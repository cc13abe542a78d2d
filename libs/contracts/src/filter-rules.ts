import { ALL_RESTAURANTS } from './place-types';

/** The filtering dialog's selection. `included` holds ALL_RESTAURANTS alone when nothing narrows it. */
export interface TypeFilter {
  included: string[];
  excluded: string[];
}

const without = (list: string[], type: string) => list.filter((t) => t !== type);
const orAll = (included: string[]) => (included.length === 0 ? [ALL_RESTAURANTS] : included);

/** SPEC §4: the user's saved lists are the defaults; otherwise everything ('restaurant'). */
export function defaultTypeFilter(saved?: {
  restaurantTypesToInclude?: string[];
  restaurantTypesToExclude?: string[];
}): TypeFilter {
  return {
    included: orAll([...(saved?.restaurantTypesToInclude ?? [])]),
    excluded: [...(saved?.restaurantTypesToExclude ?? [])],
  };
}

/** Including a type removes it from excluded and removes the 'all restaurants' marker. */
export function includeType(filter: TypeFilter, type: string): TypeFilter {
  if (type === ALL_RESTAURANTS) return selectAllRestaurants(filter);
  const included = without(filter.included, ALL_RESTAURANTS);
  return {
    included: included.includes(type) ? included : [...included, type],
    excluded: without(filter.excluded, type),
  };
}

/** Un-including the last type reverts to 'restaurant' (all). */
export function removeIncludedType(filter: TypeFilter, type: string): TypeFilter {
  return { ...filter, included: orAll(without(filter.included, type)) };
}

/** Selecting all restaurants clears the other selections. */
export function selectAllRestaurants(_filter?: TypeFilter): TypeFilter {
  return { included: [ALL_RESTAURANTS], excluded: [] };
}

/** Excluding a type removes it from included (falling back to all when that empties it). */
export function excludeType(filter: TypeFilter, type: string): TypeFilter {
  if (type === ALL_RESTAURANTS) return filter;
  return {
    included: orAll(without(filter.included, type)),
    excluded: filter.excluded.includes(type) ? filter.excluded : [...filter.excluded, type],
  };
}

export function removeExcludedType(filter: TypeFilter, type: string): TypeFilter {
  return { ...filter, excluded: without(filter.excluded, type) };
}

/** Includes (or, with `on` false, un-includes) every type of a group. */
export function includeGroup(filter: TypeFilter, types: readonly string[], on = true): TypeFilter {
  return types.reduce((acc, type) => (on ? includeType(acc, type) : removeIncludedType(acc, type)), filter);
}

/** Whether every type of a group is included. */
export function isGroupIncluded(filter: TypeFilter, types: readonly string[]): boolean {
  return types.every((type) => filter.included.includes(type));
}
