import { Place, RankPreference } from '@forkvote/contracts';

/**
 * What a provider is asked. It answers up to `candidates` places, best first by `rankPreference`; the
 * service caches them, then applies "open now", price and paging (which change by the minute or by page,
 * and which Google's nearby search cannot do itself).
 */
export interface SearchRequest {
  latitude: number;
  longitude: number;
  radiusInMeters: number;
  includedTypes: string[];
  excludedTypes: string[];
  rankPreference: RankPreference;
  candidates: number;
}

export interface PlacesProvider {
  readonly name: 'google' | 'osm' | 'demo';
  search(request: SearchRequest): Promise<Place[]>;
  /** A photo of the provider's, by reference (the PHOTO_REF_PATTERN's part for this provider). */
  photo?(ref: string): Promise<{ contentType: string; bytes: Buffer }>;
}

/**
 * A provider that answered badly (`unreachable` false: an error answer) or not at all (`unreachable` true:
 * network failure or timeout). Only the latter may fall back to the demo catalogue.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly unreachable: boolean,
  ) {
    super(message);
  }
}

/** fetch with a deadline; network failures and timeouts become `unreachable` ProviderErrors. */
export async function fetchWithTimeout(
  provider: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError';
    throw new ProviderError(
      provider,
      timedOut ? `${provider} did not answer within ${timeoutMs} ms` : `${provider} cannot be reached`,
      true,
    );
  }
}

/** Great-circle distance in meters. */
export function distanceMeters(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * 6_371_000 * Math.asin(Math.sqrt(h)));
}

/** Applies the included/excluded type rules to places a provider could not filter itself. */
export function matchesTypes(
  types: string[],
  request: Pick<SearchRequest, 'includedTypes' | 'excludedTypes'>,
): boolean {
  if (types.some((type) => request.excludedTypes.includes(type))) return false;
  if (request.includedTypes.length === 0 || request.includedTypes.includes('restaurant')) return true;
  return types.some((type) => request.includedTypes.includes(type));
}
