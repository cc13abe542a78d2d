import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsNumber, Matches, Max, Min } from 'class-validator';
import { Optional } from './validation';
import { FILTER_CATEGORIES } from './filter-categories';
import { PLACE_TYPES } from './place-types';
import { ZIPCODE_PATTERN } from './rules';
import {
  MAX_DISCOVERY_OFFSET,
  MAX_RADIUS_METERS,
  MAX_RESULT_COUNT,
  PRICE_LEVELS,
  PriceLevel,
  MIN_RADIUS_METERS,
  RADIUS_LIMITS,
  RADIUS_MESSAGE,
  RadiusUnit,
  RANK_PREFERENCES,
  RankPreference,
} from './search-rules';

/** A place in the SPEC's shape (Google Places API (New) field names), plus optional extras. */
export interface Place {
  id: string;
  displayName: { text: string; languageCode?: string };
  formattedAddress: string;
  shortFormattedAddress: string;
  googleMapsUri: string;
  types: string[];
  primaryType?: string;
  location?: { latitude: number; longitude: number };
  /** 1.0 to 5.0, and how many ratings it stands on (Google, demo). */
  rating?: number;
  userRatingCount?: number;
  /** A PriceLevel (Google, demo); Google may also say PRICE_LEVEL_UNSPECIFIED. */
  priceLevel?: string;
  /** Whether it is open at the time of the answer: Google's own, or evaluated from `openingHours`. */
  currentOpeningHours?: { openNow?: boolean };
  /** OpenStreetMap `opening_hours` syntax (OSM, demo), e.g. "Mo-Fr 11:00-22:00; Sa 12:00-23:00". */
  openingHours?: string;
  websiteUri?: string;
  /** OSM `cuisine` values as words ("Thai", "Noodle"), where types do not say it all. */
  cuisines?: string[];
  /** A photo served by our gateway (never the provider's address, which would carry the API key). */
  photo?: PlacePhoto;
  distanceMeters?: number;
  /**
   * When the people voting (the host, for a room; the signed-in user, for discovery) last chose this place,
   * if within FRESH_PICK_DAYS (ISO time). Set by rooms from past sessions' winners; never by a provider.
   */
  lastPickedAt?: string;
  /**
   * What the provider knows of the food (private limits): Google's `servesVegetarianFood`, OSM's
   * `diet:vegetarian` and `diet:vegan`, the demo catalogue's. Absent means not known.
   */
  diet?: { vegetarian?: boolean; vegan?: boolean };
}

export interface PlacePhoto {
  /** Same-origin path: /api/v1/places/photo?ref=… */
  uri: string;
  /** The photographers the provider asks us to credit. */
  attributions: { displayName: string; uri?: string }[];
}

/** A photo reference: a Google photo resource name, or a demo illustration. */
export const PHOTO_REF_PATTERN =
  /^(places\/[A-Za-z0-9_-]{1,300}\/photos\/[A-Za-z0-9_-]{1,1200}|demo\/[a-z_]{1,40}\/\d{1,6})$/;
export const placePhotoPath = (ref: string) => `/api/v1/places/photo?ref=${encodeURIComponent(ref)}`;

export class PhotoQueryDto {
  @Matches(PHOTO_REF_PATTERN, { message: 'Unknown photo' })
  ref: string;
}

/** A photo over the transport: its bytes as base64. */
export interface PhotoAnswer {
  contentType: string;
  base64: string;
}

/** GET /api/v1/places/types: every place type with its labels, and the filter groups. */
export interface PlaceTypesAnswer {
  all: string;
  types: { type: string; label: string; compact: string }[];
  categories: typeof FILTER_CATEGORIES;
}

export interface PlacesAnswer {
  places: Place[];
  /** Ask again with this offset for more of the same search; null when there are no more. */
  nextOffset: number | null;
  provider: 'google' | 'osm' | 'demo';
  /** True when the places are the offline demo catalogue, not real ones. */
  demo: boolean;
  /** A room's start only: how many places the members' private limits left out (never whose). */
  leftOutByLimits?: number;
}

export interface GeocodeAnswer {
  zipcode: string;
  lat: number;
  lon: number;
  city: string;
  state: string;
}

/** 'Popularity', 'POPULARITY' and 'popularity' all mean the same. */
const lowerCase = () => Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value));
/** Query strings carry lists as `a,b` (or repeated keys). */
const list = () =>
  Transform(({ value }) =>
    value === undefined || value === ''
      ? undefined
      : (Array.isArray(value) ? value : String(value).split(','))
          // Each element as text: a number in a JSON list is then refused as an unknown type, not a crash.
          .map((v: unknown) => (typeof v === 'string' ? v.trim() : v))
          .filter(Boolean),
  );

const TYPE_MESSAGE = 'Unknown restaurant type';
const PRICE_MESSAGE = 'Unknown price level';
/** 'true', '1' and true mean yes; 'false', '0', '' and false mean no (query strings carry text). */
const yesNo = () =>
  Transform(({ value }) =>
    value === 'true' || value === '1'
      ? true
      : value === 'false' || value === '0' || value === ''
        ? false
        : value,
  );
const RESULT_COUNT_MESSAGE = `maxResultCount must be a whole number from 1 to ${MAX_RESULT_COUNT}`;

const LOCATION_MESSAGE = 'Please provide location information';

const OFFSET_MESSAGE = `offset must be a whole number from 0 to ${MAX_DISCOVERY_OFFSET}`;
/** Where a page of a search starts: discovery's "Load more". */
const OffsetField = (): PropertyDecorator => (target, key) => {
  Optional()(target, key);
  Type(() => Number)(target, key);
  IsInt({ message: OFFSET_MESSAGE })(target, key);
  Min(0, { message: OFFSET_MESSAGE })(target, key);
  Max(MAX_DISCOVERY_OFFSET, { message: OFFSET_MESSAGE })(target, key);
};

/** Where and what to search: shared by the start payload and the discovery query. */
export class SearchCriteriaDto {
  @Type(() => Number)
  @IsNumber({}, { message: LOCATION_MESSAGE })
  @Min(-90, { message: LOCATION_MESSAGE })
  @Max(90, { message: LOCATION_MESSAGE })
  latitude: number;

  @Type(() => Number)
  @IsNumber({}, { message: LOCATION_MESSAGE })
  @Min(-180, { message: LOCATION_MESSAGE })
  @Max(180, { message: LOCATION_MESSAGE })
  longitude: number;

  @Optional()
  @list()
  @IsArray()
  @ArrayMaxSize(PLACE_TYPES.length)
  @IsIn(PLACE_TYPES, { each: true, message: TYPE_MESSAGE })
  includedTypes?: string[];

  @Optional()
  @list()
  @IsArray()
  @ArrayMaxSize(PLACE_TYPES.length)
  @IsIn(PLACE_TYPES, { each: true, message: TYPE_MESSAGE })
  excludedTypes?: string[];

  @Optional()
  @Type(() => Number)
  @IsInt({ message: RESULT_COUNT_MESSAGE })
  @Min(1, { message: RESULT_COUNT_MESSAGE })
  @Max(MAX_RESULT_COUNT, { message: RESULT_COUNT_MESSAGE })
  maxResultCount?: number;

  @Optional()
  @lowerCase()
  @IsIn(RANK_PREFERENCES, { message: 'Sort by must be Popularity or Distance' })
  rankPreference?: RankPreference;

  /** Only places known to be open now. */
  @Optional()
  @yesNo()
  @IsBoolean({ message: 'openNow must be true or false' })
  openNow?: boolean;

  /** Only these price levels (places with no known price stay). */
  @Optional()
  @list()
  @IsArray()
  @ArrayMaxSize(PRICE_LEVELS.length)
  @IsIn(PRICE_LEVELS, { each: true, message: PRICE_MESSAGE })
  priceLevels?: PriceLevel[];
}

/** The SPEC's start payload: the radius already in meters. */
export class NearbySearchDto extends SearchCriteriaDto {
  @Type(() => Number)
  @IsNumber({}, { message: RADIUS_MESSAGE })
  @Min(MIN_RADIUS_METERS, { message: RADIUS_MESSAGE })
  @Max(MAX_RADIUS_METERS, { message: RADIUS_MESSAGE })
  radiusInMeters: number;
}

/**
 * GET /api/v1/places/nearby: the discovery side. The radius comes in the unit the user picked and is
 * converted as SPEC §5 says; the limits are 1 to 50 miles or 1 to 80 km.
 */
export class NearbyQueryDto extends SearchCriteriaDto {
  @Type(() => Number)
  @IsNumber({}, { message: RADIUS_MESSAGE })
  @Min(1, { message: RADIUS_MESSAGE })
  @Max(RADIUS_LIMITS.km.max, { message: RADIUS_MESSAGE })
  radius: number = RADIUS_LIMITS.miles.default;

  @Optional()
  @lowerCase()
  @IsIn(['miles', 'km'], { message: 'unit must be miles or km' })
  unit: RadiusUnit = 'miles';

  @OffsetField()
  offset?: number;
}

/** What the places service searches: the start payload, plus where the page starts. */
export class PlacesSearchDto extends NearbySearchDto {
  @OffsetField()
  offset?: number;
}

export class GeocodeQueryDto {
  @Matches(ZIPCODE_PATTERN, { message: 'Please enter a valid 5-digit zip code.' })
  zip: string;
}
