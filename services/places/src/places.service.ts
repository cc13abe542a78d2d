import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  FILTER_CATEGORIES,
  GeocodeAnswer,
  matchesPrice,
  MAX_RESULT_COUNT,
  PhotoAnswer,
  Place,
  PLACE_TYPES,
  PlacesAnswer,
  PlacesSearchDto,
  compactPlaceType,
  placeTypeLabel,
} from '@forkvote/contracts';
import { fail, REDIS } from '@forkvote/platform';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { lookup } from 'zipcodes';
import { Search } from './entities/search.entity';
import { withOpenNow } from './opening-hours';
import { demoPhotoSvg } from './providers/demo-photo';
import { PlacesConfig } from './places.config';
import { PlacesProvider, ProviderError, SearchRequest } from './providers/places-provider';

export const PLACES_PROVIDERS = Symbol('PLACES_PROVIDERS');
export type ProviderSet = Record<'google' | 'osm' | 'demo', PlacesProvider>;

/** After a provider could not be reached, auto mode skips it for this long instead of waiting each time. */
const UNREACHABLE_BACKOFF_MS = 60_000;
/** Places asked of a provider per search (Google gives 20 at most); pages and filters are cut from them. */
export const CANDIDATES = 60;
/** Photos are kept this long in Redis (a day), and browsers may keep them as long. */
export const PHOTO_CACHE_SECONDS = 86_400;

/** A provider's ranked places for one search, as cached. */
interface Candidates {
  places: Place[];
  provider: PlacesAnswer['provider'];
}

@Injectable()
export class PlacesService {
  private readonly logger = new Logger(PlacesService.name);
  private readonly unreachableUntil = new Map<string, number>();

  constructor(
    private readonly config: PlacesConfig,
    private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(PLACES_PROVIDERS) private readonly providers: ProviderSet,
  ) {}

  /** Offline US ZIP table: no third party ever sees the zip code. */
  geocode(zip: string): GeocodeAnswer {
    const found = lookup(zip);
    if (!found || found.country !== 'US') fail(404, 'Could not find location for this zip code.');
    return { zipcode: zip, lat: found.latitude, lon: found.longitude, city: found.city, state: found.state };
  }

  types() {
    return {
      all: 'restaurant',
      types: PLACE_TYPES.map((type) => ({
        type,
        label: placeTypeLabel(type),
        compact: compactPlaceType(type),
      })),
      categories: FILTER_CATEGORIES,
    };
  }

  /**
   * A page of places for a search: the provider's ranked candidates (cached per search), each with
   * "open now" as of this moment, filtered by open now and price, from `offset`.
   */
  async search(dto: PlacesSearchDto, now = new Date()): Promise<PlacesAnswer> {
    const request = normalize(dto);
    const found = await this.candidates(request);
    const matching = found.places
      .map((place) => withOpenNow(place, now))
      .filter((place) => !dto.openNow || place.currentOpeningHours?.openNow === true)
      .filter((place) => matchesPrice(place.priceLevel, dto.priceLevels));
    const offset = dto.offset ?? 0;
    const end = offset + (dto.maxResultCount ?? MAX_RESULT_COUNT);
    return {
      places: matching.slice(offset, end),
      nextOffset: end < matching.length ? end : null,
      provider: found.provider,
      demo: found.provider === 'demo',
    };
  }

  /** The first provider of the chain that answers, from the cache where it can. */
  private async candidates(request: SearchRequest): Promise<Candidates> {
    const chain = this.chain();
    for (const [index, provider] of chain.entries()) {
      const hasFallback = index < chain.length - 1;
      if (hasFallback && (this.unreachableUntil.get(provider.name) ?? 0) > Date.now()) continue;

      const key = this.cacheKey(provider.name, request);
      const cached = await this.redis.get(key);
      if (cached) return JSON.parse(cached) as Candidates;

      const started = performance.now();
      try {
        const found: Candidates = { places: await provider.search(request), provider: provider.name };
        if (this.config.PLACES_CACHE_TTL_SECONDS > 0) {
          await this.redis.set(key, JSON.stringify(found), 'EX', this.config.PLACES_CACHE_TTL_SECONDS);
        }
        void this.record(provider.name, found.places.length, started, false);
        return found;
      } catch (err) {
        void this.record(provider.name, 0, started, true);
        if (!(err instanceof ProviderError)) throw err;
        if (err.unreachable && hasFallback) {
          this.unreachableUntil.set(provider.name, Date.now() + UNREACHABLE_BACKOFF_MS);
          this.logger.warn(
            `${err.message}; using ${chain[index + 1].name} for the next ${UNREACHABLE_BACKOFF_MS / 1000} s`,
          );
          continue;
        }
        fail(
          err.unreachable ? 503 : 502,
          `Places are unavailable right now (${err.message.replace(/\.$/, '')}). Please try again.`,
        );
      }
    }
    fail(503, 'Places are unavailable right now. Please try again.');
  }

  /**
   * A place's photo, by the reference its `photo.uri` carries: a demo illustration, or Google's photo,
   * fetched with the key on this side and kept in Redis for a day so a card seen by five people is fetched
   * once.
   */
  async photo(ref: string): Promise<PhotoAnswer> {
    const [source, type, seed] = ref.split('/');
    if (source === 'demo') {
      if (!(PLACE_TYPES as readonly string[]).includes(type)) fail(404, 'Photo not found');
      return {
        contentType: 'image/svg+xml',
        base64: Buffer.from(demoPhotoSvg(type, Number(seed))).toString('base64'),
      };
    }
    const google = this.providers.google;
    if (!this.config.GOOGLE_PLACES_API_KEY || !google.photo) fail(404, 'Photo not found');
    // One hash tag for both keys: the transaction below must stay in one slot on Redis Cluster.
    const key = `${this.config.REDIS_PREFIX}:places:photo:v2:{${ref}}`;
    const [cachedType, cachedBytes] = await Promise.all([
      this.redis.get(`${key}:type`),
      this.redis.getBuffer(key),
    ]);
    if (cachedType && cachedBytes) return { contentType: cachedType, base64: cachedBytes.toString('base64') };
    try {
      const { contentType, bytes } = await google.photo(ref);
      await this.redis
        .multi()
        .set(key, bytes, 'EX', PHOTO_CACHE_SECONDS)
        .set(`${key}:type`, contentType, 'EX', PHOTO_CACHE_SECONDS)
        .exec();
      return { contentType, base64: bytes.toString('base64') };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      this.logger.warn(`Photo ${ref.slice(0, 80)}: ${err.message}`);
      fail(err.unreachable ? 503 : 404, 'Photo not found');
    }
  }

  /** The providers to try, in order. */
  private chain(): PlacesProvider[] {
    const { google, osm, demo } = this.providers;
    switch (this.config.PLACES_PROVIDER) {
      case 'google':
        return [google];
      case 'osm':
        return [osm];
      case 'demo':
        return [demo];
      default:
        return [this.config.GOOGLE_PLACES_API_KEY ? google : osm, demo];
    }
  }

  /** Coordinates rounded to ~11 m: searches from the same spot share an answer. */
  private cacheKey(provider: string, r: SearchRequest): string {
    const types = (list: string[]) => [...list].sort().join('+') || '-';
    return [
      this.config.REDIS_PREFIX,
      'places:v2',
      provider,
      r.latitude.toFixed(4),
      r.longitude.toFixed(4),
      Math.round(r.radiusInMeters),
      types(r.includedTypes),
      types(r.excludedTypes),
      r.rankPreference,
      r.candidates,
    ].join(':');
  }

  private async record(
    provider: string,
    resultCount: number,
    started: number,
    failed: boolean,
  ): Promise<void> {
    await this.dataSource
      .getRepository(Search)
      .insert({ provider, resultCount, durationMs: Math.round(performance.now() - started), failed })
      .catch((err: Error) => this.logger.warn(`Recording a search failed: ${err.message}`));
  }
}

/** Defaults, and a type never both included and excluded (Google refuses that). */
export function normalize(dto: PlacesSearchDto): SearchRequest {
  const includedTypes = [...new Set(dto.includedTypes ?? [])];
  const excludedTypes = [...new Set(dto.excludedTypes ?? [])].filter((t) => !includedTypes.includes(t));
  return {
    latitude: dto.latitude,
    longitude: dto.longitude,
    radiusInMeters: dto.radiusInMeters,
    includedTypes: includedTypes.length > 0 ? includedTypes : ['restaurant'],
    excludedTypes,
    rankPreference: dto.rankPreference ?? 'popularity',
    candidates: CANDIDATES,
  };
}
