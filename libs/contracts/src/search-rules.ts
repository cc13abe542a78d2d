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

/**
 * Price levels in Google Places (New) names, cheapest first. Filters and cards use them for every provider;
 * OpenStreetMap has no price, so its places carry none.
 */
export const PRICE_LEVELS = [
  'PRICE_LEVEL_FREE',
  'PRICE_LEVEL_INEXPENSIVE',
  'PRICE_LEVEL_MODERATE',
  'PRICE_LEVEL_EXPENSIVE',
  'PRICE_LEVEL_VERY_EXPENSIVE',
] as const;
export type PriceLevel = (typeof PRICE_LEVELS)[number];
/** The levels a person can filter by ($ to $$$$); free places count as $. */
export const PRICE_FILTER_LEVELS = PRICE_LEVELS.slice(1) as Exclude<PriceLevel, 'PRICE_LEVEL_FREE'>[];

const PRICE_SIGNS: Record<PriceLevel, string> = {
  PRICE_LEVEL_FREE: 'Free',
  PRICE_LEVEL_INEXPENSIVE: '$',
  PRICE_LEVEL_MODERATE: '$$',
  PRICE_LEVEL_EXPENSIVE: '$$$',
  PRICE_LEVEL_VERY_EXPENSIVE: '$$$$',
};
const PRICE_WORDS: Record<PriceLevel, string> = {
  PRICE_LEVEL_FREE: 'free',
  PRICE_LEVEL_INEXPENSIVE: 'inexpensive',
  PRICE_LEVEL_MODERATE: 'moderately priced',
  PRICE_LEVEL_EXPENSIVE: 'expensive',
  PRICE_LEVEL_VERY_EXPENSIVE: 'very expensive',
};
const isPriceLevel = (level: string | undefined): level is PriceLevel =>
  (PRICE_LEVELS as readonly string[]).includes(level ?? '');

/** '$$' for PRICE_LEVEL_MODERATE; null for no level or one we do not know (PRICE_LEVEL_UNSPECIFIED). */
export const priceSigns = (level: string | undefined) => (isPriceLevel(level) ? PRICE_SIGNS[level] : null);
/** 'moderately priced', for screen readers. */
export const priceWords = (level: string | undefined) => (isPriceLevel(level) ? PRICE_WORDS[level] : null);

/**
 * Whether a place passes the price filter. A place with no known price passes: OpenStreetMap never has
 * one, and 'price unknown' is not a reason to leave a place out (docs/adr/0036).
 */
export function matchesPrice(level: string | undefined, wanted: readonly string[] | undefined): boolean {
  if (!wanted || wanted.length === 0 || !isPriceLevel(level)) return true;
  return wanted.includes(level === 'PRICE_LEVEL_FREE' ? 'PRICE_LEVEL_INEXPENSIVE' : level);
}

/** Discovery pages: how many places one "Load more" adds, and how far down the list it can go. */
export const DISCOVERY_PAGE_SIZE = 10;
export const MAX_DISCOVERY_OFFSET = 100;

/** "0.4 mi" / "1.2 km": a distance as the person's chosen unit shows it. */
/**
 * A count as people in the US write it ("1,234"). Not Intl.NumberFormat: its first use loads the ICU number
 * data, the largest single piece of work a phone does opening the voting page.
 */
export function formatCount(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatDistance(meters: number, unit: RadiusUnit): string {
  const value = meters / (unit === 'miles' ? METERS_PER_MILE : METERS_PER_KM);
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit === 'miles' ? 'mi' : 'km'}`;
}
