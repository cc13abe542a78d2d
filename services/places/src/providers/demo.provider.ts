import { Place, PLACE_TYPES } from '@forkvote/contracts';
import { createHash } from 'node:crypto';
import { distanceMeters, matchesTypes, PlacesProvider, SearchRequest } from './places-provider';

const NAME_PARTS = {
  first: [
    'Golden',
    'Blue',
    'Little',
    'Rustic',
    'Happy',
    'Copper',
    'Olive',
    'Salt',
    'Maple',
    'Red',
    'Corner',
    'Garden',
  ],
  second: [
    'Fork',
    'Spoon',
    'Table',
    'Kettle',
    'Lantern',
    'Harbor',
    'Oven',
    'Leaf',
    'Barrel',
    'Bowl',
    'Plate',
    'Grill',
  ],
};
const STREETS = [
  'Main St',
  'Oak Ave',
  'Market St',
  'Elm St',
  'Park Ave',
  'River Rd',
  'Broadway',
  'Cedar Ln',
  'Mill St',
];
const CATALOGUE_SIZE = 80;

/** A small deterministic random generator, so the same place always gets the same catalogue. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0) || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return ((state >>> 0) % 1_000_000) / 1_000_000;
  };
}

/**
 * The offline catalogue: made-up places around the searched point, the same for the same point every time.
 * Answers are flagged `demo: true` by the service, so nobody mistakes them for real restaurants.
 */
export class DemoPlacesProvider implements PlacesProvider {
  readonly name = 'demo' as const;

  async search(request: SearchRequest): Promise<Place[]> {
    const center = { latitude: request.latitude, longitude: request.longitude };
    const places = catalogue(center, request.radiusInMeters).filter((place) =>
      matchesTypes(place.types, request),
    );
    places.sort((a, b) =>
      request.rankPreference === 'distance'
        ? a.distanceMeters! - b.distanceMeters!
        : b.userRatingCount! - a.userRatingCount! || a.distanceMeters! - b.distanceMeters!,
    );
    return places.slice(0, request.maxResultCount);
  }
}

function catalogue(center: { latitude: number; longitude: number }, radius: number): Place[] {
  const key = `${center.latitude.toFixed(3)},${center.longitude.toFixed(3)}`;
  const random = seededRandom(key);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const types = PLACE_TYPES.filter((t) => t !== 'restaurant');
  return Array.from({ length: CATALOGUE_SIZE }, (_, index) => {
    const type = pick(types);
    // Uniform over the disc: sqrt for the distance.
    const distance = Math.sqrt(random()) * radius * 0.95;
    const bearing = random() * 2 * Math.PI;
    const latitude = center.latitude + (distance * Math.cos(bearing)) / 111_320;
    const longitude =
      center.longitude +
      (distance * Math.sin(bearing)) / (111_320 * Math.cos((center.latitude * Math.PI) / 180));
    const name = `${pick(NAME_PARTS.first)} ${pick(NAME_PARTS.second)} ${type.split('_')[0][0].toUpperCase()}${type.split('_')[0].slice(1)}`;
    const street = `${100 + Math.floor(random() * 900)} ${pick(STREETS)}`;
    const location = { latitude: +latitude.toFixed(6), longitude: +longitude.toFixed(6) };
    const isRestaurant = type.endsWith('_restaurant') || type === 'steak_house';
    return {
      id: `demo:${key}:${index}`,
      displayName: { text: name, languageCode: 'en' },
      formattedAddress: `${street}, Demo City, USA`,
      shortFormattedAddress: `${street}, Demo City`,
      googleMapsUri: `https://www.google.com/maps/search/?api=1&query=${location.latitude},${location.longitude}`,
      types: isRestaurant ? [type, 'restaurant'] : [type],
      primaryType: type,
      location,
      rating: Math.round((3 + random() * 2) * 10) / 10,
      userRatingCount: Math.floor(random() * 2000),
      priceLevel: pick(['PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_MODERATE', 'PRICE_LEVEL_EXPENSIVE']),
      distanceMeters: distanceMeters(center, location),
    };
  });
}
