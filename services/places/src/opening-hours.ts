import tzLookup from '@photostructure/tz-lookup';
import OpeningHours from 'opening_hours';
import { Place } from '@forkvote/contracts';

/**
 * "Open now" from OpenStreetMap's `opening_hours` syntax. The hours are the place's wall-clock hours, so
 * they are read in the place's own time zone (found from its coordinates), whatever the server's TZ is:
 * a server in UTC tells a New York diner at 21:30 its local time, not 02:30 (docs/adr/0035).
 */

/** The place's time zone, from its coordinates (an offline boundary table); null far out at sea. */
export function timeZoneAt(latitude: number, longitude: number): string | null {
  try {
    return tzLookup(latitude, longitude);
  } catch {
    return null;
  }
}

/**
 * A Date whose local fields (in this process's TZ) read what a wall clock in `timeZone` shows at `now`.
 * The opening_hours library reads local fields, so this is how it learns the place's local time.
 */
export function wallClock(now: Date, timeZone: string): Date {
  const parts = Object.fromEntries(
    wallClockFormat(timeZone)
      .formatToParts(now)
      .map((part) => [part.type, Number(part.value)]),
  );
  return new Date(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** One formatter per time zone: making one costs many times what using one does, and a search reads 60 places. */
const formats = new Map<string, Intl.DateTimeFormat>();
function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** Parsed specs, by text: the same few hundred strings come back in every search. */
const parsed = new Map<string, OpeningHours | null>();
const PARSED_LIMIT = 5000;

function parse(spec: string, latitude: number, longitude: number): OpeningHours | null {
  // Only sun-based times (sunrise, dusk) depend on where the place is.
  const key = /sun|dawn|dusk/i.test(spec) ? `${spec}|${latitude.toFixed(1)},${longitude.toFixed(1)}` : spec;
  if (parsed.has(key)) return parsed.get(key)!;
  let hours: OpeningHours | null;
  try {
    // Country 'us' for public holidays (PH); a spec needing more than the library knows fails to parse.
    hours = new OpeningHours(spec, {
      lat: latitude,
      lon: longitude,
      address: { country_code: 'us', state: '' },
    });
  } catch {
    hours = null;
  }
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(key, hours);
  return hours;
}

/**
 * Whether a place with these hours is open at `now`, in its own time zone: true, false, or undefined when
 * the hours cannot be read, say "unknown" for this moment, or the place has no location.
 */
export function isOpenAt(
  spec: string,
  location: { latitude: number; longitude: number } | undefined,
  now: Date,
): boolean | undefined {
  if (!location) return undefined;
  const timeZone = timeZoneAt(location.latitude, location.longitude);
  const hours = parse(spec, location.latitude, location.longitude);
  if (!timeZone || !hours) return undefined;
  const local = wallClock(now, timeZone);
  try {
    if (hours.getUnknown(local)) return undefined;
    return hours.getState(local);
  } catch {
    return undefined;
  }
}

/** The place with `currentOpeningHours.openNow` as of `now`, where its hours say (OSM and demo places). */
export function withOpenNow(place: Place, now: Date): Place {
  if (!place.openingHours) return place;
  const openNow = isOpenAt(place.openingHours, place.location, now);
  return { ...place, currentOpeningHours: openNow === undefined ? {} : { openNow } };
}
