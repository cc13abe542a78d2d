/** Search constants and conversions of SPEC §5 and §9, shared by the web app and the services. */
export const METERS_PER_MILE = 1609.34;
export const METERS_PER_KM = 1000;
export const RADIUS_LIMITS = {
  miles: { min: 1, max: 50, default: 5 },
  km: { min: 1, max: 80, default: 8 },
} as const;
export type RadiusUnit = keyof typeof RADIUS_LIMITS;
/** The largest radius either unit allows, in meters (50 miles). */
export const MAX_RADIUS_METERS = Math.ceil(RADIUS_LIMITS.miles.max * METERS_PER_MILE);
export const MIN_RADIUS_METERS = RADIUS_LIMITS.km.min * METERS_PER_KM;
export const PLACES_PER_BATCH = 5;
export const MAX_RESULT_COUNT = 20;
export const RANK_PREFERENCES = ['popularity', 'distance'] as const;
export type RankPreference = (typeof RANK_PREFERENCES)[number];

/** Miles ×1609.34, km ×1000; an empty value means 0 (SPEC §5). */
export function radiusToMeters(value: number | string | null | undefined, unit: RadiusUnit): number {
  const number = value === '' || value === null || value === undefined ? 0 : Number(value);
  if (!Number.isFinite(number)) return 0;
  return Math.round(number * (unit === 'miles' ? METERS_PER_MILE : METERS_PER_KM) * 100) / 100;
}

export const RADIUS_MESSAGE = 'Please choose a search radius between 1 and 50 miles (80 km).';
