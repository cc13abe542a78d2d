import { PHOTO_REF_PATTERN, Place, placePhotoPath } from '@forkvote/contracts';
import { PlacesConfig } from '../places.config';
import {
  distanceMeters,
  fetchWithTimeout,
  PlacesProvider,
  ProviderError,
  SearchRequest,
} from './places-provider';

/** Google's limits on a nearby search: the circle's radius, and places per answer (it has no pages). */
const GOOGLE_MAX_RADIUS = 50_000;
const GOOGLE_MAX_RESULTS = 20;
/** Photos are asked at the width a card shows at most, twice for sharp phone screens. */
const PHOTO_MAX_WIDTH_PX = 800;
/** A photo larger than this is not served (Google's are a few hundred KB at this width). */
const PHOTO_MAX_BYTES = 4 * 1024 * 1024;

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
  'places.currentOpeningHours.openNow',
  'places.photos',
  'places.servesVegetarianFood',
].join(',');

/** A place as Google answers it: our Place's fields, and photos in Google's shape. */
type GooglePlace = Omit<Place, 'photo'> & {
  servesVegetarianFood?: boolean;
  photos?: { name: string; authorAttributions?: { displayName?: string; uri?: string }[] }[];
};

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
      maxResultCount: Math.min(request.candidates, GOOGLE_MAX_RESULTS),
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
    const answer = (await response.json().catch(() => ({}))) as { places?: GooglePlace[] } & GoogleError;
    if (!response.ok) {
      const detail = answer.error?.message ?? `HTTP ${response.status}`;
      throw new ProviderError(
        'Google Places',
        `Google Places refused the search: ${detail}`,
        response.status >= 500,
      );
    }
    const center = { latitude: request.latitude, longitude: request.longitude };
    return (answer.places ?? []).map(({ photos, servesVegetarianFood, ...place }) => {
      const first = photos?.find(
        (photo) => typeof photo.name === 'string' && PHOTO_REF_PATTERN.test(photo.name),
      );
      return {
        ...place,
        ...(first ? { photo: toPhoto(first) } : {}),
        // Google says nothing of vegan food; a place with no vegetarian food has none either.
        ...(typeof servesVegetarianFood === 'boolean'
          ? {
              diet: servesVegetarianFood ? { vegetarian: true } : { vegetarian: false, vegan: false },
            }
          : {}),
        ...(place.location ? { distanceMeters: distanceMeters(center, place.location) } : {}),
      };
    });
  }

  /**
   * A photo's bytes from Google's media endpoint (`{name}/media`), which answers a redirect to the image.
   * Asked with the key in a header, from this service only: the browser sees our gateway's address.
   */
  async photo(name: string): Promise<{ contentType: string; bytes: Buffer }> {
    const url = new URL(`/v1/${name}/media`, this.config.GOOGLE_PLACES_URL);
    url.searchParams.set('maxWidthPx', String(PHOTO_MAX_WIDTH_PX));
    const response = await fetchWithTimeout(
      'Google Places',
      url.toString(),
      { headers: { 'X-Goog-Api-Key': this.config.GOOGLE_PLACES_API_KEY }, redirect: 'follow' },
      this.config.PLACES_TIMEOUT_MS,
    );
    const contentType = response.headers.get('content-type') ?? '';
    if (!response.ok || !/^image\/(jpeg|png|webp|gif)$/.test(contentType.split(';')[0].trim())) {
      throw new ProviderError(
        'Google Places',
        response.ok
          ? 'Google Places answered a photo that is not an image'
          : `Google Places answered HTTP ${response.status} for a photo`,
        response.status >= 500,
      );
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > PHOTO_MAX_BYTES)
      throw new ProviderError('Google Places', 'Google Places answered a photo too large to serve', false);
    return { contentType: contentType.split(';')[0].trim(), bytes };
  }
}

function toPhoto(photo: NonNullable<GooglePlace['photos']>[number]): Place['photo'] {
  return {
    uri: placePhotoPath(photo.name),
    attributions: (photo.authorAttributions ?? [])
      .filter((a) => typeof a.displayName === 'string' && a.displayName)
      .map((a) => ({
        displayName: a.displayName!,
        // Google writes these scheme-relative ("//maps.google.com/maps/contrib/…").
        ...(typeof a.uri === 'string' && /^(https:)?\/\/[^/]/.test(a.uri)
          ? { uri: a.uri.startsWith('//') ? `https:${a.uri}` : a.uri }
          : {}),
      })),
  };
}
