import { MESSAGES, ROOM_MESSAGES } from '@forkvote/contracts';
import { TokenKeys } from '@forkvote/platform';
import {
  checkoutCookie,
  clientAddress,
  cookieNamed,
  registration,
  login,
  Participant,
  signUp,
  startTestStack,
  TestStack,
  uniqueEmail,
} from '@forkvote/testing';
import Redis from 'ioredis';
import { Client } from 'pg';
import request from 'supertest';

const JWT_SECRET = 'security-suite-secret-of-more-than-32-bytes';

/**
 * What an attacker tries first: one kind of token passed off as another, a forged cross-site request, a
 * checkout completed ten times at once, a session that should be dead, someone guessing at an account.
 */
describe('security at the gateway', () => {
  let stack: TestStack;
  let redis: Redis;

  beforeAll(async () => {
    stack = await startTestStack({ JWT_SECRET });
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });

  afterAll(async () => {
    redis?.disconnect();
    await stack?.stop();
  });

  const keysUnder = async (pattern: string) => redis.keys(`${stack.redisPrefix}:${pattern}`);

  /** A logged-in host with a room: their session, host and member tokens. */
  async function hostWithRoom() {
    const user = await signUp(stack.url, 'monthly', 'Tess Token');
    const host = new Participant(stack.url, user.cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Tess' });
    expect(created.status).toBe(200);
    return {
      host,
      code: created.body.waitingRoom.waitingRoomId as string,
      userId: created.body.userId as string,
      session: user.cookie.split('=')[1],
      hostToken: created.body.token as string,
      memberToken: cookieNamed('fv_room', created.headers['set-cookie']).split('=')[1],
    };
  }

  describe('token kinds', () => {
    it('each verifier accepts only its own kind: 401 for the others, no 500 and no Redis write', async () => {
      const { code, userId, session, hostToken, memberToken } = await hostWithRoom();
      const before = await keysUnder('session:*');
      const api = () => request(stack.url);

      for (const token of [hostToken, memberToken]) {
        for (const send of [
          (t: request.Test) => t.set('Authorization', `Bearer ${token}`),
          (t: request.Test) => t.set('Cookie', `fv_session=${token}`),
        ]) {
          expect((await send(api().get('/api/v1/me'))).status).toBe(401);
          expect((await send(api().post('/api/v1/auth/verify-token'))).status).toBe(401);
          expect((await send(api().post('/api/v1/auth/logout'))).status).toBe(401);
          expect((await send(api().get('/api/v1/me/stripe'))).status).toBe(401);
        }
      }
      expect(await keysUnder('session:*')).toEqual(before);
      expect(await keysUnder('*undefined*')).toEqual([]);

      // The host verifier (start, next-batch) takes only a room host token.
      for (const token of [session, memberToken]) {
        const res = await api()
          .post('/api/v1/waiting-room/next-batch')
          .set('Authorization', `Bearer ${token}`)
          .send({ waitingRoomId: code, nextBatchIndex: 1 });
        expect(res.status).toBe(401);
        expect(res.body.message).toBe(ROOM_MESSAGES.hostOnly);
      }

      // The member verifier (vote, leave, the event stream) takes only a room member token.
      for (const token of [session, hostToken]) {
        const res = await api()
          .patch('/api/v1/waiting-room/leave')
          .set('Cookie', `fv_room=${token}`)
          .send({ waitingRoomId: code, userId });
        expect(res.status).toBe(401);
        const stream = await api()
          .get(`/api/v1/waiting-room/events/${code}?userId=${userId}&userName=x`)
          .set('Cookie', `fv_room=${token}`);
        expect(stream.status).toBe(401);
      }

      // And each kind still works where it belongs.
      await api().get('/api/v1/me').set('Authorization', `Bearer ${session}`).expect(200);
    });

    it('refuses a token signed with another secret, and one signed with the right one but no key id', async () => {
      const { code, userId } = await hostWithRoom();
      const stranger = new TokenKeys('an-entirely-different-secret-of-32-bytes!!');
      const claims = { roomId: '00000000-0000-4000-8000-000000000000', code, userId };
      const forged = stranger.sign('room-host', claims, 600);
      const res = await request(stack.url)
        .post('/api/v1/waiting-room/next-batch')
        .set('Authorization', `Bearer ${forged}`)
        .send({ waitingRoomId: code, nextBatchIndex: 1 });
      expect(res.status).toBe(401);
      const sessionLike = stranger.sign('session', { sub: userId, email: 'x@example.com', jti: userId }, 600);
      await request(stack.url).get('/api/v1/me').set('Cookie', `fv_session=${sessionLike}`).expect(401);
    });

    it('keeps sessions and room tokens working through a JWT_SECRET rotation', async () => {
      const { host, code, session, hostToken } = await hostWithRoom();
      const rotated = {
        JWT_SECRET: 'the-next-secret-after-rotation-is-this-one',
        JWT_SECRET_PREVIOUS: JWT_SECRET,
      };
      for (const name of ['auth', 'rooms', 'gateway']) {
        await stack.stopOne(name);
        stack.startOne(name, name, rotated);
      }
      await stack.waitHealthy(60_000);
      await request(stack.url).get('/api/v1/me').set('Cookie', `fv_session=${session}`).expect(200);
      const next = await host.post(
        '/api/v1/waiting-room/next-batch',
        { waitingRoomId: code, nextBatchIndex: 1 },
        { Authorization: `Bearer ${hostToken}` },
      );
      expect(next.status).not.toBe(401);
      // New sessions are signed with the new secret and verify too.
      const fresh = await signUp(stack.url);
      await request(stack.url).get('/api/v1/me').set('Cookie', fresh.cookie).expect(200);
    });
  });

  describe('durable revocation', () => {
    it('a logged-out session and sessions from before a reset stay refused after Redis loses every key', async () => {
      const user = await signUp(stack.url, 'monthly', 'Rhea Revoked');
      const kept = await login(stack.url, user.email, user.password);
      const loggedOut = await login(stack.url, user.email, user.password);
      await request(stack.url).post('/api/v1/auth/logout').set('Cookie', loggedOut).expect(200);

      const other = await signUp(stack.url, 'monthly', 'Reese Reset');
      const beforeReset = other.cookie;
      await request(stack.url).post('/api/v1/auth/reset-password').send({ email: other.email }).expect(200);
      const outbox = await request(stack.url).get('/api/v1/dev/outbox').expect(200);
      const token = /token=(\S+)/.exec(
        outbox.body.find((m: { to: string }) => m.to === other.email).text,
      )![1];
      await request(stack.url)
        .post('/api/v1/auth/reset-password-token')
        .send({ token, password: 'a brand new password' })
        .expect(200);

      for (const cookie of [loggedOut, beforeReset])
        await request(stack.url).get('/api/v1/me').set('Cookie', cookie).expect(401);

      // Every key of this stack goes: streams, caches, counters, the lot (as a Redis restart would).
      const all = await keysUnder('*');
      expect(all.length).toBeGreaterThan(0);
      await redis.del(...all);

      const deadline = Date.now() + 20_000;
      let me = await request(stack.url).get('/api/v1/me').set('Cookie', kept);
      while (me.status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        me = await request(stack.url).get('/api/v1/me').set('Cookie', kept);
      }
      expect(me.status).toBe(200);
      for (const cookie of [loggedOut, beforeReset]) {
        const res = await request(stack.url).get('/api/v1/me').set('Cookie', cookie);
        expect(res.status).toBe(401);
        expect(res.body.message).toBe(MESSAGES.tokenVerificationFailed);
      }
      const after = await login(stack.url, other.email, 'a brand new password');
      await request(stack.url).get('/api/v1/me').set('Cookie', after).expect(200);
    });
  });

  describe('cross-site requests', () => {
    const evil = 'https://evil.example';

    it('refuses a state change from another origin with 403, cookie or not', async () => {
      const user = await signUp(stack.url);
      const patched = await request(stack.url)
        .patch('/api/v1/me')
        .set('Cookie', user.cookie)
        .set('Origin', evil)
        .send({ name: 'Pwned' });
      expect(patched.status).toBe(403);
      expect(patched.body.message).toBe(MESSAGES.crossOrigin);
      await request(stack.url)
        .post('/api/v1/auth/logout')
        .set('Cookie', user.cookie)
        .set('Sec-Fetch-Site', 'cross-site')
        .expect(403);
      await request(stack.url)
        .post('/api/v1/auth/logout')
        .set('Cookie', user.cookie)
        .set('Origin', 'null')
        .expect(403);
      // The same calls from the product's own origin go through.
      await request(stack.url)
        .patch('/api/v1/me')
        .set('Cookie', user.cookie)
        .set('Origin', stack.url)
        .send({ name: 'Still Me' })
        .expect(200);
      const me = await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie).expect(200);
      expect(me.body.name).toBe('Still Me');
    });

    it('accepts only JSON bodies on state-changing API calls (415 otherwise)', async () => {
      const user = await signUp(stack.url);
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', 'name=Pwned'],
        ['text/plain', '{"name":"Pwned"}'],
        [
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nP\r\n--x--',
        ],
      ]) {
        const res = await request(stack.url)
          .patch('/api/v1/me')
          .set('Cookie', user.cookie)
          .set('Content-Type', type)
          .send(body);
        expect(res.status).toBe(415);
        expect(res.body.message).toBe(MESSAGES.jsonOnly);
      }
      const login = await request(stack.url)
        .post('/api/v1/auth/login')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .send(`email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`);
      expect(login.status).toBe(415);
    });

    it('lets the local checkout pages post their forms, from their own origin only', async () => {
      const reg = await request(stack.url)
        .post('/api/v1/auth/register')
        .set('X-Forwarded-For', clientAddress())
        .send(registration({ name: 'Form Poster' }))
        .expect(200);
      const secret = checkoutCookie(reg.headers['set-cookie']);
      expect(JSON.stringify(reg.body)).not.toContain(secret.split('=')[1]);
      const url = `${reg.body.stripeCheckoutUrl}/complete`;
      await request(stack.url)
        .post(url)
        .set('Cookie', secret)
        .set('Origin', evil)
        .type('form')
        .send('')
        .expect(403);
      await request(stack.url)
        .post(url)
        .set('Cookie', secret)
        .set('Origin', stack.url)
        .type('form')
        .send('')
        .expect(303);
    });
  });

  describe('headers', () => {
    it('every kind of answer carries the CSP, nosniff, no framing and a referrer policy (no HSTS outside production)', async () => {
      for (const path of ['/', '/api/v1/health', '/api/v1/me', '/no/such/page', '/api/v1/nope']) {
        const res = await request(stack.url).get(path);
        expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(res.headers['content-security-policy']).toContain("script-src 'self'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('same-origin');
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
    });

    it('an event stream keeps nosniff and its request id, and none of the headers only documents need', async () => {
      const { host, code, userId } = await hostWithRoom();
      const stream = await host.events(code, userId);
      try {
        expect(stream.headers?.['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(stream.headers?.['x-content-type-options']).toBe('nosniff');
        expect(stream.headers?.['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
        for (const name of [
          'content-security-policy',
          'x-frame-options',
          'referrer-policy',
          'cross-origin-opener-policy',
          'strict-transport-security',
        ])
          expect(stream.headers?.[name]).toBeUndefined();
      } finally {
        stream.close();
      }
      // A refusal on the stream's path is JSON under nosniff: no browser renders it as a page.
      const refused = await request(stack.url).get(`/api/v1/waiting-room/events/${code}`);
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toMatch(/^application\/json/);
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
    });
  });

  describe('the local checkout', () => {
    it('completes exactly once when ten completions race', async () => {
      const email = uniqueEmail('racer');
      const reg = await request(stack.url)
        .post('/api/v1/auth/register')
        .set('X-Forwarded-For', clientAddress())
        .send(registration({ email, name: 'Rae Racer' }))
        .expect(200);
      const secret = checkoutCookie(reg.headers['set-cookie']);
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          request(stack.url).post(`${reg.body.stripeCheckoutUrl}/complete`).set('Cookie', secret),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([303, 409, 409, 409, 409, 409, 409, 409, 409, 409]);

      const db = new Client({ connectionString: stack.databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM billing.subscriptions s JOIN auth.users u ON u.id = s.user_id WHERE u.email = $1`,
          [email],
        );
        expect(rows[0].n).toBe(1);
      } finally {
        await db.end();
      }
    });

    it('opens only for the registering browser or the owner, not for whoever knows its address', async () => {
      const body = registration({ name: 'Owen Owner', plan: 'lifetime' });
      const reg = await request(stack.url).post('/api/v1/auth/register').send(body).expect(200);
      const url = reg.body.stripeCheckoutUrl as string;
      const stranger = await signUp(stack.url);
      await request(stack.url).get(url).expect(403);
      await request(stack.url).post(`${url}/complete`).expect(403);
      await request(stack.url).post(`${url}/complete`).set('Cookie', stranger.cookie).expect(403);
      await request(stack.url).post(`${url}/complete`).set('Cookie', 'fv_checkout=guessed').expect(403);
      // The owner, logged in from another browser, may finish it.
      const owner = await login(stack.url, body.email, body.password);
      await request(stack.url).post(`${url}/complete`).set('Cookie', owner).expect(303);
      const me = await request(stack.url).get('/api/v1/me').set('Cookie', owner).expect(200);
      expect(me.body.hasLifetimeAccess).toBe(true);
    });
  });

  describe('login throttling', () => {
    const attempt = (email: string, password: string, ip: string, cookie?: string) => {
      const test = request(stack.url).post('/api/v1/auth/login').set('X-Forwarded-For', ip);
      if (cookie) test.set('Cookie', cookie);
      return test.send({ email, password });
    };

    it('ten failures from one address block that address for the account, not the owner elsewhere', async () => {
      const user = await signUp(stack.url);
      for (let i = 0; i < 10; i++) await attempt(user.email, 'wrong', '203.0.113.10').expect(401);
      const blocked = await attempt(user.email, user.password, '203.0.113.10').expect(429);
      expect(blocked.body.message).toBe(MESSAGES.tooManyAttempts);
      await attempt(user.email, user.password, '203.0.113.11').expect(200);
    });

    it('thirty failures from one address block that address for every account', async () => {
      const user = await signUp(stack.url);
      for (let i = 0; i < 30; i++) await attempt(uniqueEmail('spray'), 'wrong', '203.0.113.20').expect(401);
      await attempt(user.email, user.password, '203.0.113.20').expect(429);
      await attempt(user.email, user.password, '203.0.113.21').expect(200);
    });

    it('guessing from many addresses slows the account down, then lets the right password through', async () => {
      const user = await signUp(stack.url);
      for (let i = 0; i < 20; i++)
        await attempt(user.email, 'wrong', `203.0.113.${30 + (i % 3)}`).expect(401);
      const slowed = await attempt(user.email, user.password, '203.0.113.40').expect(429);
      const wait = Number(slowed.headers['retry-after']);
      // Past 20 failures the first wait is 1 s, doubling with each further failure, at most 5 minutes.
      expect(wait).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
      await attempt(user.email, user.password, '203.0.113.40').expect(200);
    });

    it('a browser the owner logged in from before is never slowed by strangers guessing', async () => {
      const user = await signUp(stack.url);
      const earlier = await attempt(user.email, user.password, '203.0.113.50').expect(200);
      const device = cookieNamed('fv_device', earlier.headers['set-cookie']);
      for (let i = 0; i < 20; i++)
        await attempt(user.email, 'wrong', `203.0.113.${60 + (i % 3)}`).expect(401);
      await attempt(user.email, user.password, '203.0.113.70').expect(429);
      await attempt(user.email, user.password, '203.0.113.70', device).expect(200);
    });
  });
});
