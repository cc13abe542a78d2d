import type { NearbySearchDto } from '@forkvote/contracts';

export const START_SEARCH: NearbySearchDto;
export const CHROMIUM_PATH: string;
export const CHROMIUM_FLAGS: string[];
export const PUBLIC_ROUTES: string[];
export function selfSignedCertificate(): { key: Buffer; cert: Buffer };
