import express from 'express';
import request from 'supertest';
import { GatewayConfig } from '../gateway.config';
import { securityHeaders } from './http-security';

/** A bare app with only the security headers, answering every path. */
function appWith(NODE_ENV: GatewayConfig['NODE_ENV']) {
  const app = express();
  app.use(securityHeaders({ NODE_ENV } as GatewayConfig));
  app.use((_req, res) => res.json({}));
  return app;
}

describe('securityHeaders', () => {
  const stream = '/api/v1/waiting-room/events/ABC123';

  it('gives documents the CSP, framing and referrer headers, and HSTS in production', async () => {
    const page = await request(appWith('production')).get('/room/ABC123');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('gives an event stream nosniff and (in production) HSTS, and nothing only documents need', async () => {
    const production = await request(appWith('production')).get(stream);
    expect(production.headers['x-content-type-options']).toBe('nosniff');
    expect(production.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(production.headers['content-security-policy']).toBeUndefined();
    expect(production.headers['x-frame-options']).toBeUndefined();

    const development = await request(appWith('development')).get(stream);
    expect(development.headers['x-content-type-options']).toBe('nosniff');
    expect(development.headers['strict-transport-security']).toBeUndefined();
  });

  it('treats only GET of a stream path as a stream', async () => {
    for (const [method, path] of [
      ['post', stream],
      ['get', `${stream}/more`],
      ['get', '/api/v1/waiting-room/events/'],
    ] as const) {
      const res = await request(appWith('production'))[method](path);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });
});
