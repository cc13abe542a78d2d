import express, { Express, NextFunction, Request, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built web app. Hashed assets (`/assets/*`) never change under their name: a year's immutable
 * caching, and the build's brotli or gzip copy when the browser takes one (Content-Encoding and
 * Vary: Accept-Encoding set). index.html, served for every other GET that is not an API call so client
 * routes survive a reload, is `no-cache`: a deploy shows on the next load.
 */
export function serveWebApp(server: Express, webDist: string): boolean {
  const index = join(webDist, 'index.html');
  if (!existsSync(index)) return false;
  server.use(
    '/assets',
    expressStaticGzip(join(webDist, 'assets'), {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
    }),
  );
  const files = express.static(webDist, { index: false, maxAge: '1h' });
  server.use((req: Request, res: Response, next: NextFunction) => {
    // API calls skip the file lookups entirely: a stat per request is a real cost under load. A path under
    // /api/ in any other case is no client route either: it goes on to the API's 404.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || /^\/api\//i.test(req.path)) return next();
    files(req, res, () => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    });
  });
  return true;
}
