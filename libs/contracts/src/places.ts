import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsNumber, Matches, Max, Min } from 'class-validator';
import { Optional } from './validation';
import { FILTER_CATEGORIES } from './filter-categories';
import { PLACE_TYPES } from './place-types';
import { ZIPCODE_PATTERN } from './rules';
import {
  MAX_RADIUS_METERS,
  MAX_RESULT_COUNT,
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
  rating?: number;
  userRatingCount?: number;
  priceLevel?: string;
  distanceMeters?: number;
}

/** GET /api/v1/places/types: every place type with its labels, and the filter groups. */
export interface PlaceTypesAnswer {
  all: string;
  types: { type: string; label: string; compact: string }[];
  categories: typeof FILTER_CATEGORIES;
}

export interface PlacesAnswer {
  places: Place[];
  provider: 'google' | 'osm' | 'demo';
  /** True when the places are the offline demo catalogue, not real ones. */
  demo: boolean;
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
const RESULT_COUNT_MESSAGE = `maxResultCount must be a whole number from 1 to ${MAX_RESULT_COUNT}`;

const LOCATION_MESSAGE = 'Please provide location information';

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
}

export class GeocodeQueryDto {
  @Matches(ZIPCODE_PATTERN, { message: 'Please enter a valid 5-digit zip code.' })
  zip: string;
}
