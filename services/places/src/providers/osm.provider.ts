import { osmDiet, Place } from '@forkvote/contracts';
import { PlacesConfig } from '../places.config';
import {
  distanceMeters,
  fetchWithTimeout,
  matchesTypes,
  PlacesProvider,
  ProviderError,
  SearchRequest,
} from './places-provider';

interface OverpassElement {
  type: 'node' | 'way' | 'relation';
  id: number;
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags?: Record<string, string>;
}

const AMENITY_TYPES: Record<string, string[]> = {
  restaurant: ['restaurant'],
  cafe: ['cafe'],
  fast_food: ['meal_takeaway'],
  bar: ['bar'],
  pub: ['pub'],
  biergarten: ['bar'],
  ice_cream: ['ice_cream_shop'],
  food_court: ['food_court'],
};

const SHOP_TYPES: Record<string, string[]> = {
  bakery: ['bakery'],
  confectionery: ['confectionery'],
  chocolate: ['chocolate_shop'],
  deli: ['deli'],
  coffee: ['coffee_shop'],
  tea: ['tea_house'],
};

/** OSM `cuisine=` values onto the SPEC's place types. */
const CUISINE_TYPES: Record<string, string> = {
  american: 'american_restaurant',
  asian: 'asian_restaurant',
  afghan: 'afghani_restaurant',
  african: 'african_restaurant',
  bagel: 'bagel_shop',
  barbecue: 'barbecue_restaurant',
  bbq: 'barbecue_restaurant',
  brazilian: 'brazilian_restaurant',
  breakfast: 'breakfast_restaurant',
  brunch: 'brunch_restaurant',
  buffet: 'buffet_restaurant',
  burger: 'hamburger_restaurant',
  chinese: 'chinese_restaurant',
  coffee_shop: 'coffee_shop',
  dessert: 'dessert_restaurant',
  donut: 'donut_shop',
  french: 'french_restaurant',
  greek: 'greek_restaurant',
  ice_cream: 'ice_cream_shop',
  indian: 'indian_restaurant',
  indonesian: 'indonesian_restaurant',
  italian: 'italian_restaurant',
  japanese: 'japanese_restaurant',
  juice: 'juice_shop',
  korean: 'korean_restaurant',
  lebanese: 'lebanese_restaurant',
  mediterranean: 'mediterranean_restaurant',
  mexican: 'mexican_restaurant',
  middle_eastern: 'middle_eastern_restaurant',
  pizza: 'pizza_restaurant',
  ramen: 'ramen_restaurant',
  sandwich: 'sandwich_shop',
  seafood: 'seafood_restaurant',
  spanish: 'spanish_restaurant',
  steak_house: 'steak_house',
  sushi: 'sushi_restaurant',
  tea: 'tea_house',
  thai: 'thai_restaurant',
  turkish: 'turkish_restaurant',
  vegan: 'vegan_restaurant',
  vegetarian: 'vegetarian_restaurant',
  vietnamese: 'vietnamese_restaurant',
  wine: 'wine_bar',
};

/** The SPEC place types an OSM element stands for. */
export function osmTypes(tags: Record<string, string>): string[] {
  const types = new Set<string>([...(AMENITY_TYPES[tags.amenity] ?? []), ...(SHOP_TYPES[tags.shop] ?? [])]);
  for (const cuisine of (tags.cuisine ?? '').split(';')) {
    const type = CUISINE_TYPES[cuisine.trim().toLowerCase()];
    if (type) types.add(type);
  }
  if (tags['diet:vegan'] === 'only') types.add('vegan_restaurant');
  if (tags['diet:vegetarian'] === 'only') types.add('vegetarian_restaurant');
  return [...types];
}

/**
 * OSM has no popularity. We approximate it by how well-documented a place is: each of these tags is a
 * sign that people care enough to map it (docs/adr/0031).
 */
const POPULARITY_SIGNALS = [
  'wikidata',
  'wikipedia',
  'website',
  'opening_hours',
  'phone',
  'cuisine',
  'brand',
  'addr:street',
  'outdoor_seating',
  'takeaway',
];
export const popularityScore = (tags: Record<string, string>) =>
  POPULARITY_SIGNALS.filter((tag) => tags[tag]).length;

/** OpenStreetMap through the Overpass API. */
export class OsmPlacesProvider implements PlacesProvider {
  readonly name = 'osm' as const;

  constructor(private readonly config: PlacesConfig) {}

  async search(request: SearchRequest): Promise<Place[]> {
    const around = `(around:${Math.round(request.radiusInMeters)},${request.latitude},${request.longitude})`;
    const query = `[out:json][timeout:${Math.ceil(this.config.PLACES_TIMEOUT_MS / 1000)}];
(nwr["amenity"~"^(restaurant|cafe|fast_food|bar|pub|biergarten|ice_cream|food_court)$"]["name"]${around};
 nwr["shop"~"^(bakery|confectionery|chocolate|deli|coffee|tea)$"]["name"]${around};);
out center tags 300;`;
    const response = await fetchWithTimeout(
      'OpenStreetMap',
      this.config.OVERPASS_URL,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ data: query }).toString(),
      },
      this.config.PLACES_TIMEOUT_MS,
    );
    if (!response.ok) {
      const reason = response.status === 429 ? 'is rate limiting us' : `answered HTTP ${response.status}`;
      throw new ProviderError(
        'OpenStreetMap',
        `OpenStreetMap ${reason}`,
        response.status === 429 || response.status >= 500,
      );
    }
    const answer = (await response.json().catch(() => null)) as {
      elements?: OverpassElement[];
      remark?: string;
    } | null;
    if (!answer || !Array.isArray(answer.elements))
      throw new ProviderError('OpenStreetMap', 'OpenStreetMap answered garbage', false);

    const center = { latitude: request.latitude, longitude: request.longitude };
    const places = answer.elements
      .map((element) => toPlace(element, center))
      .filter((entry): entry is { place: Place; score: number } => entry !== null)
      .filter(({ place }) => matchesTypes(place.types, request));
    places.sort((a, b) =>
      request.rankPreference === 'distance'
        ? a.place.distanceMeters! - b.place.distanceMeters!
        : b.score - a.score || a.place.distanceMeters! - b.place.distanceMeters!,
    );
    return places.slice(0, request.candidates).map(({ place }) => place);
  }
}

/** `diet:vegetarian` and `diet:vegan` as the place's diet, where tagged (a vegan place is vegetarian). */
function dietOf(tags: Record<string, string>): Pick<Place, 'diet'> {
  const vegan = osmDiet(tags['diet:vegan']);
  const vegetarian = osmDiet(tags['diet:vegetarian']) ?? (vegan ? true : undefined);
  if (vegan === undefined && vegetarian === undefined) return {};
  return {
    diet: {
      ...(vegetarian !== undefined ? { vegetarian } : {}),
      ...(vegan !== undefined ? { vegan } : vegetarian === false ? { vegan: false } : {}),
    },
  };
}

function toPlace(
  element: OverpassElement,
  center: { latitude: number; longitude: number },
): { place: Place; score: number } | null {
  const tags = element.tags ?? {};
  const lat = element.lat ?? element.center?.lat;
  const lon = element.lon ?? element.center?.lon;
  if (!tags.name || lat === undefined || lon === undefined) return null;
  const types = osmTypes(tags);
  if (types.length === 0) return null;
  const street = [tags['addr:housenumber'], tags['addr:street']].filter(Boolean).join(' ');
  const shortAddress = [street, tags['addr:city']].filter(Boolean).join(', ');
  const fullAddress = [
    street,
    tags['addr:city'],
    [tags['addr:state'], tags['addr:postcode']].filter(Boolean).join(' '),
  ]
    .filter(Boolean)
    .join(', ');
  const location = { latitude: lat, longitude: lon };
  const website = tags.website ?? tags['contact:website'];
  const cuisines = (tags.cuisine ?? '')
    .split(';')
    .map((c) => c.trim().replace(/_/g, ' '))
    .filter(Boolean)
    .slice(0, 4)
    .map((c) => c[0].toUpperCase() + c.slice(1));
  return {
    score: popularityScore(tags),
    place: {
      id: `osm:${element.type}/${element.id}`,
      displayName: { text: tags.name },
      formattedAddress: fullAddress || `${lat.toFixed(5)}, ${lon.toFixed(5)}`,
      shortFormattedAddress: shortAddress || fullAddress || `${lat.toFixed(5)}, ${lon.toFixed(5)}`,
      googleMapsUri: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${tags.name} ${lat},${lon}`)}`,
      types,
      primaryType: types[0],
      location,
      ...(tags.opening_hours ? { openingHours: tags.opening_hours.slice(0, 500) } : {}),
      ...(website && /^https?:\/\/\S+$/i.test(website) ? { websiteUri: website } : {}),
      ...(cuisines.length > 0 ? { cuisines } : {}),
      ...dietOf(tags),
      distanceMeters: distanceMeters(center, location),
    },
  };
}
