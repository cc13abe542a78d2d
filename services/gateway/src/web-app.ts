import escape from 'escape-html';
import express, { Express, NextFunction, Request, Response } from 'express';
import { readFile } from 'node:fs/promises';
import expressStaticGzip from 'express-static-gzip';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Serves the built web app. Hashed assets (`/assets/*`) never change under their name: a year's immutable
 * caching, and the build's brotli or gzip copy when the browser takes one (Content-Encoding and
 * Vary: Accept-Encoding set). index.html, served for every other GET that is not an API call so client
 * routes survive a reload, is `no-cache`: a deploy shows on the next load.
 */
/** A page's title and description for link previews, or null to serve index.html as it is. */
export type PagePreview = (path: string) => Promise<{ title: string; description: string } | null>;

/** index.html with a page's own title and description (and their Open Graph tags, for link previews). */
export function withPreview(html: string, page: { title: string; description: string }): string {
  const title = escape(page.title);
  const description = escape(page.description);
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${description}" />`,
    )
    .replace(
      '</head>',
      `<meta property="og:title" content="${title}" />` +
        `<meta property="og:description" content="${description}" />` +
        `<meta property="og:type" content="website" /></head>`,
    );
}

export function serveWebApp(server: Express, webDist: string, preview?: PagePreview): boolean {
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
      if (!preview) return res.sendFile(index);
      preview(req.path)
        .then(async (page) => {
          if (!page) return res.sendFile(index);
          res.type('html').send(withPreview(await readFile(index, 'utf8'), page));
        })
        .catch(next);
    });
  });
  return true;
}
