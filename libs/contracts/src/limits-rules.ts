/**
 * Private limits (docs/groups.md): what one member of a room will not go to, seen by nobody else. Pure
 * rules and texts, safe for the browser; the request body is in limits.ts.
 */
import type { Place } from './places';
import { PRICE_LEVELS, type PriceLevel } from './search-rules';

export const DIETS = ['vegetarian', 'vegan'] as const;
export type Diet = (typeof DIETS)[number];

/** The longest distances a member can pick, in meters (½, 1, 2, 5 and 10 miles). */
export const LIMIT_DISTANCES_METERS = [805, 1609, 3219, 8047, 16093] as const;
export const MIN_LIMIT_DISTANCE_METERS = 100;
export const MAX_LIMIT_DISTANCE_METERS = 50_000;

export const DIET_LABELS: Record<Diet, string> = { vegetarian: 'Vegetarian', vegan: 'Vegan' };

/** "2 miles (3.2 km)": a distance as the limits' menu names it. */
export function limitDistanceLabel(meters: number): string {
  const miles = Math.round((meters / 1609.344) * 10) / 10;
  const km = Math.round(meters / 100) / 10;
  const mileText = miles === 0.5 ? '½ mile' : `${miles} ${miles === 1 ? 'mile' : 'miles'}`;
  return `${mileText} (${km} km)`;
}

/** One member's limits; null means none of that kind. */
export interface PrivateLimits {
  diet: Diet | null;
  maxPriceLevel: PriceLevel | null;
  maxDistanceMeters: number | null;
}

export const NO_LIMITS: PrivateLimits = { diet: null, maxPriceLevel: null, maxDistanceMeters: null };

export const LIMITS_MESSAGES = {
  unknownDiet: 'Diet must be vegetarian or vegan',
  unknownPrice: 'Unknown price level',
  badDistance: `The longest distance must be a whole number of meters from ${MIN_LIMIT_DISTANCE_METERS} to ${MAX_LIMIT_DISTANCE_METERS}`,
  notWaiting: 'Private limits can only be changed before voting starts.',
  saved: 'Your limits are saved. Only you can see them.',
  everyPlaceLeftOut: 'No place found fits everyone’s private limits. Try a wider search.',
} as const;

/** GET/PUT /waiting-room/limits: the caller's own limits in this room. */
export interface LimitsAnswer {
  limits: PrivateLimits;
  /** True when these came from the member's profile (they set none in this room yet). */
  fromProfile: boolean;
}

/** `base` with the fields `change` gives (null clears one; absent keeps it). */
export function mergeLimits(base: PrivateLimits | null, change: Partial<PrivateLimits>): PrivateLimits {
  const from = base ?? NO_LIMITS;
  return {
    diet: change.diet !== undefined ? change.diet : from.diet,
    maxPriceLevel: change.maxPriceLevel !== undefined ? change.maxPriceLevel : from.maxPriceLevel,
    maxDistanceMeters:
      change.maxDistanceMeters !== undefined ? change.maxDistanceMeters : from.maxDistanceMeters,
  };
}

export const hasLimits = (limits: PrivateLimits | null | undefined): limits is PrivateLimits =>
  !!limits && (limits.diet !== null || limits.maxPriceLevel !== null || limits.maxDistanceMeters !== null);

/**
 * Whether a place fits one member's limits. What a provider does not know never leaves a place out: a
 * place with no diet information, no price or no distance stays (as the price filter keeps places with
 * no known price). A place known not to serve vegetarian food serves no vegan food either.
 */
export function fitsLimits(place: Place, limits: PrivateLimits): boolean {
  if (limits.diet === 'vegetarian' && place.diet?.vegetarian === false) return false;
  if (limits.diet === 'vegan' && (place.diet?.vegan === false || place.diet?.vegetarian === false))
    return false;
  if (limits.maxPriceLevel !== null && place.priceLevel !== undefined) {
    const level = PRICE_LEVELS.indexOf(place.priceLevel as PriceLevel);
    if (level > PRICE_LEVELS.indexOf(limits.maxPriceLevel)) return false;
  }
  if (
    limits.maxDistanceMeters !== null &&
    place.distanceMeters !== undefined &&
    place.distanceMeters > limits.maxDistanceMeters
  )
    return false;
  return true;
}

/**
 * The first `max` places, in their order, that fit every member's limits, and how many were left out
 * before the last of them (never by whose).
 */
export function applyLimits(
  places: Place[],
  everyone: PrivateLimits[],
  max = Infinity,
): { kept: Place[]; leftOut: number } {
  const active = everyone.filter(hasLimits);
  const kept: Place[] = [];
  let leftOut = 0;
  for (const place of places) {
    if (kept.length >= max) break;
    if (active.every((limits) => fitsLimits(place, limits))) kept.push(place);
    else leftOut++;
  }
  return { kept, leftOut };
}

/** "3 places left out by private limits" (what the host sees). */
export const leftOutText = (count: number) =>
  `${count} ${count === 1 ? 'place' : 'places'} left out by private limits`;

/** OpenStreetMap's `diet:*` values: yes, only and limited mean it is served; no means not. */
export function osmDiet(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'yes' || v === 'only' || v === 'limited') return true;
  if (v === 'no') return false;
  return undefined;
}
