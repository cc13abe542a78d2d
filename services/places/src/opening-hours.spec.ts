import { isOpenAt, timeZoneAt, wallClock, withOpenNow } from './opening-hours';

/**
 * "Open now" is read in the place's own time zone at a fixed instant, whatever the process's TZ: each case
 * runs under three different process time zones and must give the same answer.
 */
const NEW_YORK = { latitude: 40.7484, longitude: -73.9967 };
const LOS_ANGELES = { latitude: 34.0522, longitude: -118.2437 };

// Monday 23 November 2026, 21:30 in New York (EST, UTC-5) = 02:30 UTC on Tuesday = 18:30 in Los Angeles.
const MONDAY_2130_NEW_YORK = new Date('2026-11-24T02:30:00Z');
// Saturday 4 July 2026, 12:00 in New York (EDT, UTC-4): a US public holiday.
const JULY_4_NOON_NEW_YORK = new Date('2026-07-04T16:00:00Z');

const PROCESS_ZONES = ['UTC', 'Asia/Tokyo', 'America/Los_Angeles'];
const originalTz = process.env.TZ;
afterAll(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe.each(PROCESS_ZONES)('opening hours with the process in %s', (zone) => {
  beforeAll(() => {
    process.env.TZ = zone;
  });

  it('finds the place’s time zone from its coordinates', () => {
    expect(timeZoneAt(NEW_YORK.latitude, NEW_YORK.longitude)).toBe('America/New_York');
    expect(timeZoneAt(LOS_ANGELES.latitude, LOS_ANGELES.longitude)).toBe('America/Los_Angeles');
  });

  it('reads the wall clock of the place', () => {
    const local = wallClock(MONDAY_2130_NEW_YORK, 'America/New_York');
    expect([local.getDay(), local.getHours(), local.getMinutes()]).toEqual([1, 21, 30]);
  });

  it.each([
    ['Mo-Fr 11:00-22:00', NEW_YORK, true],
    ['Mo-Fr 11:00-21:00', NEW_YORK, false],
    ['Tu-Su 11:00-23:00; Mo off', NEW_YORK, false],
    ['Mo-Th 16:00-24:00; Fr,Sa 16:00-02:00', NEW_YORK, true],
    ['24/7', NEW_YORK, true],
    ['off', NEW_YORK, false],
    // The same instant is 18:30 on Monday in Los Angeles.
    ['Mo-Fr 19:00-23:00', LOS_ANGELES, false],
    ['Mo-Fr 17:00-19:00', LOS_ANGELES, true],
  ])('%s at 21:30 New York time → %s', (spec, location, open) => {
    expect(isOpenAt(spec, location as typeof NEW_YORK, MONDAY_2130_NEW_YORK)).toBe(open);
  });

  it('knows US public holidays (PH)', () => {
    expect(isOpenAt('Mo-Su 09:00-17:00; PH off', NEW_YORK, JULY_4_NOON_NEW_YORK)).toBe(false);
    expect(isOpenAt('Mo-Su 09:00-17:00', NEW_YORK, JULY_4_NOON_NEW_YORK)).toBe(true);
  });

  it('answers unknown for hours it cannot read, "unknown" hours, and no location', () => {
    expect(isOpenAt('whenever we feel like it', NEW_YORK, MONDAY_2130_NEW_YORK)).toBeUndefined();
    expect(isOpenAt('Mo-Fr 10:00-23:00 unknown', NEW_YORK, MONDAY_2130_NEW_YORK)).toBeUndefined();
    expect(isOpenAt('24/7', undefined, MONDAY_2130_NEW_YORK)).toBeUndefined();
  });

  it('sets currentOpeningHours on a place with hours and leaves others alone', () => {
    const place = {
      id: 'osm:node/1',
      displayName: { text: 'Late Noodles' },
      formattedAddress: '',
      shortFormattedAddress: '',
      googleMapsUri: '',
      types: ['restaurant'],
      location: NEW_YORK,
    };
    expect(withOpenNow({ ...place, openingHours: 'Mo 20:00-23:00' }, MONDAY_2130_NEW_YORK)).toMatchObject({
      currentOpeningHours: { openNow: true },
    });
    expect(
      withOpenNow({ ...place, openingHours: 'sometimes' }, MONDAY_2130_NEW_YORK).currentOpeningHours,
    ).toEqual({});
    expect(withOpenNow(place, MONDAY_2130_NEW_YORK)).toBe(place);
  });
});
