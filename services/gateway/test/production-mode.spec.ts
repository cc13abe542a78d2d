import type { SystemHealth } from '@forkvote/contracts';
import { DEV_JWT_SECRET } from '@forkvote/platform';
import {
  clientAddress,
  freePort,
  Participant,
  registration,
  signUp,
  startTestStack,
  TestStack,
} from '@forkvote/testing';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';

const ROOT = join(__dirname, '../../..');
const STRONG_SECRET = 'a-production-secret-that-is-long-enough-0123';

/**
 * Runs one process of the build with `env` and answers how it ended and what it printed. A process that
 * is still running after `aliveAfterMs` got past its configuration. A refusal is waited for until it exits:
 * on a loaded machine loading the process's code alone can take longer than the few seconds that tell a
 * process that started.
 */
function run(
  name: string,
  env: Record<string, string>,
  aliveAfterMs = 4000,
): Promise<{ code: number | null; output: string; started: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'services', name, 'dist', 'main.js')], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        JWT_SECRET: STRONG_SECRET,
        // Nothing listens here: a process that got past its configuration would fail later, differently.
        DATABASE_URL: 'postgres://postgres@127.0.0.1:9/none',
        REDIS_URL: 'redis://127.0.0.1:9',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    // A process whose configuration passed goes on to connect (to nothing): it does not exit by itself.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, output, started: true });
    }, aliveAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, started: !/failed to start: Invalid configuration/.test(output) });
    });
  });
}

describe('production mode', () => {
  describe('refuses to start on a development fallback, naming the variable', () => {
    it.each([
      ['auth', {}, ['RECAPTCHA_SECRET', 'SMTP_URL']],
      ['auth', { SMTP_URL: 'smtp://mail.example:587' }, ['RECAPTCHA_SECRET']],
      ['auth', { RECAPTCHA_SECRET: 'recaptcha-secret' }, ['SMTP_URL']],
      ['billing', {}, ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']],
      ['billing', { STRIPE_SECRET_KEY: 'sk_live_abc' }, ['STRIPE_WEBHOOK_SECRET']],
      ['billing', { BILLING_MODE: 'stripe', NODE_ENV: 'development' }, ['STRIPE_SECRET_KEY']],
      ['gateway', {}, ['RECAPTCHA_SITE_KEY']],
      ['rooms', { JWT_SECRET: '' }, ['JWT_SECRET']],
      ['rooms', { JWT_SECRET: DEV_JWT_SECRET }, ['JWT_SECRET']],
      ['rooms', { JWT_SECRET: 'short-secret' }, ['JWT_SECRET']],
      ['places', { JWT_SECRET: 'CHANGE-ME-to-a-long-random-string-of-64-characters' }, ['JWT_SECRET']],
      [
        'places',
        { JWT_SECRET_PREVIOUS: 'CHANGE-ME-to-a-long-random-string-of-64-characters' },
        ['JWT_SECRET_PREVIOUS'],
      ],
      ['gateway', { RECAPTCHA_SITE_KEY: 'site-key', TRUST_PROXY: 'not-an-address' }, ['TRUST_PROXY']],
    ] as [string, Record<string, string>, string[]][])('%s with %j', async (name, env, variables) => {
      const { code, output } = await run(name, env, 45_000);
      expect(code).toBe(1);
      for (const variable of variables) expect(output).toContain(`${variable}=`);
      // The refusal names the variable but never repeats a secret's value.
      for (const value of Object.values(env).filter((v) => v.length > 8)) {
        if (/SECRET|KEY/.test(Object.keys(env).find((k) => env[k] === value)!))
          expect(output).not.toContain(value);
      }
    });

    it.each([
      ['billing', { BILLING_MODE: 'test' }],
      ['billing', { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }],
      ['auth', { ENABLE_DEV_BOT_CHECK: 'true', ENABLE_DEV_OUTBOX: 'true' }],
      ['auth', { RECAPTCHA_SECRET: 'recaptcha-secret', SMTP_URL: 'smtp://mail.example:587' }],
      ['gateway', { ENABLE_DEV_BOT_CHECK: 'true', TRUST_PROXY: '10.0.0.0/8, 192.168.0.0/16' }],
      ['gateway', { RECAPTCHA_SITE_KEY: 'site-key', TRUST_PROXY: '1' }],
    ] as [string, Record<string, string>][])('%s starts with %j', async (name, env) => {
      expect((await run(name, env)).started).toBe(true);
    });
  });

  describe('a production stack in explicit billing test mode', () => {
    let stack: TestStack;
    let metricsPort: number;

    beforeAll(async () => {
      metricsPort = await freePort();
      stack = await startTestStack(
        {
          NODE_ENV: 'production',
          JWT_SECRET: STRONG_SECRET,
          BILLING_MODE: 'test',
          ENABLE_DEV_BOT_CHECK: 'true',
          ENABLE_DEV_OUTBOX: 'true',
        },
        undefined,
        { gateway: { METRICS_PORT: String(metricsPort) } },
      );
    });

    afterAll(async () => {
      await stack?.stop();
    });

    it('says "test mode" in the operators\' health report, the checkout answer and the checkout page', async () => {
      const health = (await (await fetch(`http://127.0.0.1:${metricsPort}/health`)).json()) as SystemHealth;
      // The public answer says nothing of how billing runs.
      const pub = await request(stack.url).get('/api/v1/health').expect(200);
      expect(JSON.stringify(pub.body)).not.toContain('mode');
      expect(health.services).toContainEqual(
        expect.objectContaining({ service: 'billing', mode: 'test mode' }),
      );
      const reg = await request(stack.url)
        .post('/api/v1/auth/register')
        .set('X-Forwarded-For', clientAddress())
        .send(registration({ name: 'Pru Production', plan: 'yearly' }))
        .expect(200);
      expect(reg.body.testMode).toBe(true);
      const cookie = ([] as string[])
        .concat(reg.headers['set-cookie'])
        .find((c) => c.startsWith('fv_checkout='))!;
      expect(cookie).toMatch(/; Secure/);
      const page = await request(stack.url)
        .get(reg.body.stripeCheckoutUrl)
        .set('Cookie', cookie.split(';')[0])
        .expect(200);
      expect(page.text).toContain('TEST MODE');
    });

    it('serves no API docs and no development outbox, and sends HSTS', async () => {
      await request(stack.url).get('/api/docs').expect(404);
      await request(stack.url).get('/api/docs-json').expect(404);
      await request(stack.url).get('/api/v1/dev/outbox').expect(404);
      const home = await request(stack.url).get('/').expect(200);
      expect(home.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      expect(home.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    });

    it('gives an event stream nosniff and HSTS, and none of the headers only documents need', async () => {
      const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Sam Stream')).cookie);
      const created = await host.post('/api/v1/waiting-room/create', { userName: 'Sam' });
      expect(created.status).toBe(200);
      const stream = await host.events(created.body.waitingRoom.waitingRoomId, created.body.userId);
      try {
        expect(stream.headers?.['strict-transport-security']).toMatch(/max-age=31536000/);
        expect(stream.headers?.['x-content-type-options']).toBe('nosniff');
        expect(stream.headers?.['content-security-policy']).toBeUndefined();
        expect(stream.headers?.['x-frame-options']).toBeUndefined();
      } finally {
        stream.close();
      }
    });
  });
});
