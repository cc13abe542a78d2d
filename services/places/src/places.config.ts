import { IntSetting, PlatformConfig } from '@forkvote/platform';
import { IsIn, IsString, Matches } from 'class-validator';

export class PlacesConfig extends PlatformConfig {
  /**
   * auto: Google when GOOGLE_PLACES_API_KEY is set, otherwise OpenStreetMap; either falls back to the demo
   * catalogue while it cannot be reached. google, osm, demo: that provider only.
   */
  @IsIn(['auto', 'google', 'osm', 'demo'])
  PLACES_PROVIDER: 'auto' | 'google' | 'osm' | 'demo' = 'auto';

  @IsString()
  GOOGLE_PLACES_API_KEY = '';

  @Matches(/^https?:\/\/\S+$/, { message: 'GOOGLE_PLACES_URL must be an http(s) URL' })
  GOOGLE_PLACES_URL = 'https://places.googleapis.com/v1/places:searchNearby';

  @Matches(/^https?:\/\/\S+$/, { message: 'OVERPASS_URL must be an http(s) URL' })
  OVERPASS_URL = 'https://overpass-api.de/api/interpreter';

  /** A provider slower than this answers a clear error (or the demo catalogue in auto mode). */
  @IntSetting(200, 60_000)
  PLACES_TIMEOUT_MS = 4000;

  @IntSetting(0, 86_400)
  PLACES_CACHE_TTL_SECONDS = 600;
}
