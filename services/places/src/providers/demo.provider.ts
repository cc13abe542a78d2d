import { Place, placePhotoPath, PLACE_TYPES, PriceLevel } from '@forkvote/contracts';
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
/** The word a place of the type puts after its name (most let the type label beside the name speak). */
const NAME_ENDINGS: Record<string, string> = {
  cafe: 'Café',
  coffee_shop: 'Coffee',
  bakery: 'Bakery',
  bagel_shop: 'Bagels',
  donut_shop: 'Donuts',
  tea_house: 'Tea House',
  juice_shop: 'Juice Bar',
  ice_cream_shop: 'Creamery',
  chocolate_shop: 'Chocolates',
  dessert_shop: 'Sweets',
  bar: 'Bar',
  pub: 'Pub',
  wine_bar: 'Wine Bar',
  diner: 'Diner',
  deli: 'Deli',
  pizza_restaurant: 'Pizzeria',
  steak_house: 'Steakhouse',
  sandwich_shop: 'Sandwiches',
  hamburger_restaurant: 'Burgers',
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

/** What kind of place a type is: its usual hours and prices. */
type Kind = 'morning' | 'sweets' | 'bar' | 'quick' | 'fine' | 'allNight' | 'restaurant';
const KINDS: Record<string, Kind> = {
  breakfast_restaurant: 'morning',
  brunch_restaurant: 'morning',
  bagel_shop: 'morning',
  cafe: 'morning',
  coffee_shop: 'morning',
  bakery: 'morning',
  donut_shop: 'morning',
  cat_cafe: 'morning',
  dog_cafe: 'morning',
  juice_shop: 'morning',
  acai_shop: 'morning',
  tea_house: 'morning',
  cafeteria: 'morning',
  ice_cream_shop: 'sweets',
  dessert_shop: 'sweets',
  dessert_restaurant: 'sweets',
  candy_store: 'sweets',
  chocolate_shop: 'sweets',
  chocolate_factory: 'sweets',
  confectionery: 'sweets',
  bar: 'bar',
  pub: 'bar',
  wine_bar: 'bar',
  bar_and_grill: 'bar',
  meal_takeaway: 'quick',
  meal_delivery: 'quick',
  food_court: 'quick',
  sandwich_shop: 'quick',
  deli: 'quick',
  pizza_restaurant: 'quick',
  hamburger_restaurant: 'quick',
  fine_dining_restaurant: 'fine',
  steak_house: 'fine',
  diner: 'allNight',
};

/** Opening hours in OpenStreetMap syntax, as such places really post them. */
const HOURS: Record<Kind, string[]> = {
  morning: ['Mo-Fr 07:00-15:00; Sa,Su 08:00-14:00', 'Mo-Su 06:30-18:00', 'Mo-Sa 07:00-16:00; Su off'],
  sweets: ['Mo-Su 12:00-22:00', 'Tu-Su 11:00-21:00; Mo off', 'Mo-Th 12:00-21:00; Fr-Su 11:00-23:00'],
  bar: ['Mo-Th 16:00-24:00; Fr,Sa 16:00-02:00; Su 12:00-22:00', 'Mo-Su 15:00-01:00'],
  quick: ['Mo-Su 10:30-22:00', 'Mo-Su 10:00-23:00', 'Mo-Fr 10:00-21:00; Sa,Su 11:00-21:00'],
  fine: ['Tu-Sa 17:30-22:30; Su,Mo off', 'We-Su 18:00-23:00; Mo,Tu off'],
  allNight: ['24/7', 'Mo-Su 06:00-02:00'],
  restaurant: [
    'Mo-Th 11:30-21:30; Fr,Sa 11:30-23:00; Su 12:00-21:00',
    'Tu-Su 17:00-22:00; Mo off',
    'Mo-Su 11:00-22:00',
    'Mo-Fr 11:00-14:30,17:00-22:00; Sa,Su 12:00-22:30',
  ],
};

/** Price levels, weighted by how often each turns up for the kind. */
const PRICES: Record<Kind, PriceLevel[]> = {
  morning: ['PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_MODERATE'],
  sweets: ['PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_MODERATE'],
  bar: ['PRICE_LEVEL_MODERATE', 'PRICE_LEVEL_MODERATE', 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_EXPENSIVE'],
  quick: ['PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_MODERATE'],
  fine: ['PRICE_LEVEL_EXPENSIVE', 'PRICE_LEVEL_VERY_EXPENSIVE'],
  allNight: ['PRICE_LEVEL_INEXPENSIVE'],
  restaurant: [
    'PRICE_LEVEL_MODERATE',
    'PRICE_LEVEL_MODERATE',
    'PRICE_LEVEL_INEXPENSIVE',
    'PRICE_LEVEL_EXPENSIVE',
  ],
};

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
    return places.slice(0, request.candidates);
  }
}

/**
 * What the catalogue says of its food: vegan and vegetarian restaurants as their names say, steak houses
 * mostly without, the rest a mix, and a quarter not known (as on the real services).
 */
function demoDiet(type: string, random: () => number): Pick<Place, 'diet'> {
  const [a, b] = [random(), random()];
  if (type === 'vegan_restaurant') return { diet: { vegetarian: true, vegan: true } };
  if (type === 'vegetarian_restaurant') return { diet: { vegetarian: true, vegan: a < 0.5 } };
  if (a < 0.25) return {};
  const vegetarian = type === 'steak_house' || type === 'barbecue_restaurant' ? a > 0.8 : a > 0.4;
  return { diet: vegetarian ? { vegetarian, vegan: b < 0.3 } : { vegetarian, vegan: false } };
}

function catalogue(center: { latitude: number; longitude: number }, radius: number): Place[] {
  const key = `${center.latitude.toFixed(3)},${center.longitude.toFixed(3)}`;
  const random = seededRandom(key);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const types = PLACE_TYPES.filter((t) => t !== 'restaurant');
  // Its own sequence, so that adding diets left every other field of the catalogue as it was.
  const dietRandom = seededRandom(`${key}:diet`);
  return Array.from({ length: CATALOGUE_SIZE }, (_, index) => {
    const type = pick(types);
    // Uniform over the disc: sqrt for the distance.
    const distance = Math.sqrt(random()) * radius * 0.95;
    const bearing = random() * 2 * Math.PI;
    const latitude = center.latitude + (distance * Math.cos(bearing)) / 111_320;
    const longitude =
      center.longitude +
      (distance * Math.sin(bearing)) / (111_320 * Math.cos((center.latitude * Math.PI) / 180));
    const ending = NAME_ENDINGS[type];
    const name = `${pick(NAME_PARTS.first)} ${pick(NAME_PARTS.second)}${ending ? ` ${ending}` : ''}`;
    const street = `${100 + Math.floor(random() * 900)} ${pick(STREETS)}`;
    const location = { latitude: +latitude.toFixed(6), longitude: +longitude.toFixed(6) };
    const isRestaurant = type.endsWith('_restaurant') || type === 'steak_house';
    const kind = KINDS[type] ?? 'restaurant';
    // Ratings cluster around 4.2 as real ones do; counts run from a handful to a couple of thousand.
    const rating = Math.round((3.4 + 1.5 * Math.sqrt(random())) * 10) / 10;
    const userRatingCount = Math.floor(Math.exp(random() * 7.6));
    // One place in twelve has posted no price, as on the real services.
    const priceLevel = random() < 1 / 12 ? undefined : pick(PRICES[kind]);
    return {
      id: `demo:${key}:${index}`,
      displayName: { text: name, languageCode: 'en' },
      formattedAddress: `${street}, Demo City, USA`,
      shortFormattedAddress: `${street}, Demo City`,
      googleMapsUri: `https://www.google.com/maps/search/?api=1&query=${location.latitude},${location.longitude}`,
      types: isRestaurant ? [type, 'restaurant'] : [type],
      primaryType: type,
      location,
      rating: Math.min(rating, 4.9),
      userRatingCount,
      ...(priceLevel ? { priceLevel } : {}),
      openingHours: pick(HOURS[kind]),
      ...demoDiet(type, dietRandom),
      photo: { uri: placePhotoPath(`demo/${type}/${index}`), attributions: [] },
      distanceMeters: distanceMeters(center, location),
    };
  });
}
