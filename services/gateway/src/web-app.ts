import express, { Express, NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other GET that is
 * not an API call, so client-side routes survive a reload.
 */
export function serveWebApp(server: Express, webDist: string): boolean {
  const index = join(webDist, 'index.html');
  if (!existsSync(index)) return false;
  server.use(
    '/assets',
    express.static(join(webDist, 'assets'), { immutable: true, maxAge: '1y', fallthrough: false }),
  );
  const files = express.static(webDist, { index: false, maxAge: '1h' });
  server.use((req: Request, res: Response, next: NextFunction) => {
    // API calls skip the file lookups entirely: a stat per request is a real cost under load.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/api/')) return next();
    files(req, res, () => {
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(index);
    });
  });
  return true;
}
