import { Place } from '@forkvote/contracts';
import { PlacesConfig } from '../places.config';
import {
  distanceMeters,
  fetchWithTimeout,
  PlacesProvider,
  ProviderError,
  SearchRequest,
} from './places-provider';

/** Google's limit on a nearby search circle. */
const GOOGLE_MAX_RADIUS = 50_000;

const FIELD_MASK = [
  'places.id',
  'places.displayName',
  'places.formattedAddress',
  'places.shortFormattedAddress',
  'places.googleMapsUri',
  'places.types',
  'places.primaryType',
  'places.location',
  'places.rating',
  'places.userRatingCount',
  'places.priceLevel',
].join(',');

interface GoogleError {
  error?: { code?: number; message?: string; status?: string };
}

/** Google Places API (New) `places:searchNearby`. */
export class GooglePlacesProvider implements PlacesProvider {
  readonly name = 'google' as const;

  constructor(private readonly config: PlacesConfig) {}

  async search(request: SearchRequest): Promise<Place[]> {
    const body = {
      includedTypes: request.includedTypes,
      excludedTypes: request.excludedTypes,
      maxResultCount: request.maxResultCount,
      rankPreference: request.rankPreference === 'distance' ? 'DISTANCE' : 'POPULARITY',
      locationRestriction: {
        circle: {
          center: { latitude: request.latitude, longitude: request.longitude },
          radius: Math.min(request.radiusInMeters, GOOGLE_MAX_RADIUS),
        },
      },
    };
    const response = await fetchWithTimeout(
      'Google Places',
      this.config.GOOGLE_PLACES_URL,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'X-Goog-Api-Key': this.config.GOOGLE_PLACES_API_KEY,
          'X-Goog-FieldMask': FIELD_MASK,
        },
        body: JSON.stringify(body),
      },
      this.config.PLACES_TIMEOUT_MS,
    );
    const answer = (await response.json().catch(() => ({}))) as { places?: Place[] } & GoogleError;
    if (!response.ok) {
      const detail = answer.error?.message ?? `HTTP ${response.status}`;
      throw new ProviderError(
        'Google Places',
        `Google Places refused the search: ${detail}`,
        response.status >= 500,
      );
    }
    const center = { latitude: request.latitude, longitude: request.longitude };
    return (answer.places ?? []).map((place) => ({
      ...place,
      ...(place.location ? { distanceMeters: distanceMeters(center, place.location) } : {}),
    }));
  }
}
