import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The product's version, from the root package.json (the release the images are tagged with): the traces'
 * `service.version` and forkvote_build_info.
 */
export const SERVICE_VERSION: string = (() => {
  // From dist/ in the repository and in the image; the working directory as a fallback.
  for (const dir of [join(__dirname, '..', '..', '..'), process.cwd()]) {
    try {
      return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      // the next place
    }
  }
  return 'unknown';
})();
