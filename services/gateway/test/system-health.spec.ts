import type { SystemHealth } from '@forkvote/contracts';
import { freePort, startTestStack, TestStack } from '@forkvote/testing';
import request from 'supertest';

/** Boots all four services and the gateway as real processes against the real PostgreSQL and Redis. */
describe('system health through the gateway', () => {
  let stack: TestStack;
  let metricsPort: number;
  /** The operators' report, on the gateway's metrics listener. */
  const report = async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/health`);
    return { status: res.status, body: (await res.json()) as SystemHealth };
  };

  beforeAll(async () => {
    metricsPort = await freePort();
    // Each public answer computed afresh here, so a change shows at once (the cache has its own test).
    stack = await startTestStack({ HEALTH_TIMEOUT_MS: '1000', HEALTH_CACHE_MS: '0' }, undefined, {
      gateway: { METRICS_PORT: String(metricsPort) },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('reports every part as up in public, and every service, the database and Redis to operators', async () => {
    const pub = await request(stack.url).get('/api/v1/health').expect(200);
    expect(pub.body).toEqual({
      status: 'ok',
      message: 'All systems operational',
      checkedAt: expect.any(String),
      parts: [
        { part: 'accounts', label: 'accounts and sign-in', status: 'up' },
        { part: 'sessions', label: 'sessions and voting', status: 'up' },
        { part: 'payments', label: 'plans and payments', status: 'up' },
        { part: 'places', label: 'place search', status: 'up' },
        { part: 'saving', label: 'saving changes', status: 'up' },
        { part: 'live', label: 'live updates', status: 'up' },
      ],
    });
    const res = await report();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.message).toBe('All systems operational');
    expect(res.body.gateway.database.status).toBe('up');
    expect(res.body.gateway.redis.status).toBe('up');
    expect(res.body.services.map((s: { service: string }) => s.service)).toEqual([
      'auth',
      'rooms',
      'billing',
      'places',
    ]);
    for (const service of res.body.services) {
      expect(service).toMatchObject({ status: 'up', database: { status: 'up' }, redis: { status: 'up' } });
      expect(service.latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('serves the web app at / and falls back to index.html for client routes', async () => {
    const home = await request(stack.url).get('/').expect(200);
    expect(home.text).toContain('<div id="root"></div>');
    const deep = await request(stack.url).get('/waiting-room').expect(200);
    expect(deep.text).toContain('<div id="root"></div>');
    await request(stack.url).get('/api/v1/no-such-call').expect(404);
  });

  it('serves the OpenAPI docs', async () => {
    const res = await request(stack.url).get('/api/docs-json').expect(200);
    expect(res.body.paths).toHaveProperty('/api/v1/health');
  });

  it('answers 503 naming the service that is down, and recovers when it is back', async () => {
    await stack.stopOne('billing');
    const pub = await request(stack.url).get('/api/v1/health').expect(503);
    expect(pub.body.status).toBe('degraded');
    expect(pub.body.message).toBe('Some of ForkVote is not answering right now: plans and payments.');
    expect(JSON.stringify(pub.body)).not.toMatch(/billing|1000 ms|instance|latency/);
    const res = await report();
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('unavailable');
    expect(res.body.message).toBe('Unavailable: billing service');
    const billing = res.body.services.find((s: { service: string }) => s.service === 'billing');
    expect(billing).toMatchObject({ status: 'down', error: 'No answer within 1000 ms' });

    stack.startOne('billing');
    await stack.waitHealthy(30_000);
  });

  it('stays ready while PostgreSQL is unreachable: readiness asks Redis only, the health report says what is down', async () => {
    await stack.stopOne('gateway');
    // The same gateway, with a database address nothing answers on.
    stack.startOne('gateway', 'gateway', { DATABASE_URL: 'postgres://forkvote@127.0.0.1:1/nothing' });
    try {
      const deadline = Date.now() + 30_000;
      let ready = 0;
      while (Date.now() < deadline && ready !== 200) {
        ready = await fetch(`${stack.url}/api/v1/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(ready).toBe(200);
      const readyBody = await (await fetch(`${stack.url}/api/v1/health/ready`)).json();
      expect(readyBody).toMatchObject({ status: 'ready', redis: { status: 'up' } });
      expect(readyBody).not.toHaveProperty('database');
      const pub = await request(stack.url).get('/api/v1/health').expect(503);
      expect(pub.body.parts).toContainEqual({ part: 'saving', label: 'saving changes', status: 'degraded' });
      const detail = await report();
      expect(detail.body.gateway.database.status).toBe('down');
    } finally {
      await stack.stopOne('gateway');
      stack.startOne('gateway');
      await stack.waitHealthy(30_000);
    }
  });
});
