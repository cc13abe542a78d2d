import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  FILTER_CATEGORIES,
  GeocodeAnswer,
  MAX_RESULT_COUNT,
  NearbySearchDto,
  PLACE_TYPES,
  PlacesAnswer,
  compactPlaceType,
  placeTypeLabel,
} from '@forkvote/contracts';
import { fail, REDIS } from '@forkvote/platform';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { lookup } from 'zipcodes';
import { Search } from './entities/search.entity';
import { PlacesConfig } from './places.config';
import { PlacesProvider, ProviderError, SearchRequest } from './providers/places-provider';

export const PLACES_PROVIDERS = Symbol('PLACES_PROVIDERS');
export type ProviderSet = Record<'google' | 'osm' | 'demo', PlacesProvider>;

/** After a provider could not be reached, auto mode skips it for this long instead of waiting each time. */
const UNREACHABLE_BACKOFF_MS = 60_000;

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

  async search(dto: NearbySearchDto): Promise<PlacesAnswer> {
    const request = normalize(dto);
    const chain = this.chain();
    for (const [index, provider] of chain.entries()) {
      const hasFallback = index < chain.length - 1;
      if (hasFallback && (this.unreachableUntil.get(provider.name) ?? 0) > Date.now()) continue;

      const key = this.cacheKey(provider.name, request);
      const cached = await this.redis.get(key);
      if (cached) return JSON.parse(cached) as PlacesAnswer;

      const started = performance.now();
      try {
        const places = await provider.search(request);
        const answer: PlacesAnswer = { places, provider: provider.name, demo: provider.name === 'demo' };
        if (this.config.PLACES_CACHE_TTL_SECONDS > 0) {
          await this.redis.set(key, JSON.stringify(answer), 'EX', this.config.PLACES_CACHE_TTL_SECONDS);
        }
        void this.record(provider.name, places.length, started, false);
        return answer;
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
      'places:v1',
      provider,
      r.latitude.toFixed(4),
      r.longitude.toFixed(4),
      Math.round(r.radiusInMeters),
      types(r.includedTypes),
      types(r.excludedTypes),
      r.rankPreference,
      r.maxResultCount,
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
export function normalize(dto: NearbySearchDto): SearchRequest {
  const includedTypes = [...new Set(dto.includedTypes ?? [])];
  const excludedTypes = [...new Set(dto.excludedTypes ?? [])].filter((t) => !includedTypes.includes(t));
  return {
    latitude: dto.latitude,
    longitude: dto.longitude,
    radiusInMeters: dto.radiusInMeters,
    includedTypes: includedTypes.length > 0 ? includedTypes : ['restaurant'],
    excludedTypes,
    maxResultCount: dto.maxResultCount ?? MAX_RESULT_COUNT,
    rankPreference: dto.rankPreference ?? 'popularity',
  };
}
