import { MESSAGES, ROOM_MESSAGES, type SystemHealth } from '@forkvote/contracts';
import {
  clientAddress,
  cookieNamed,
  freePort,
  Participant,
  signUp,
  START_SEARCH,
  startTestStack,
  TestStack,
  uniqueEmail,
} from '@forkvote/testing';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import request from 'supertest';

/**
 * What an attacker tries at the edge, each a finding of an outside review: a path spelt in another case to
 * slip past the CSRF guard, a token bent out of ASCII, logins fired all at once, the places bill run up,
 * the development outbox read from afar, another caller's idempotency key, streams held after leaving,
 * cached private answers, a socket held open by a trickle of bytes, a health answer that says too much.
 */
/**
 * The addresses this suite exhausts a limit from: outside the addresses `clientAddress()` gives, so no
 * other request of the suite (a sign-up's login) happens to come from an address blocked here.
 */
const ADDRESSES = {
  oneAccount: '203.0.113.200',
  manyAccounts: '203.0.113.201',
  owner: '203.0.113.202',
  searcher: '203.0.113.203',
  feedback: '203.0.113.204',
};

describe('the edge under abuse', () => {
  let stack: TestStack;
  let metricsPort: number;
  const evil = 'https://evil.example';

  beforeAll(async () => {
    metricsPort = await freePort();
    stack = await startTestStack({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '3000' }, undefined, {
      gateway: { METRICS_PORT: String(metricsPort) },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** A logged-in host with a room: the host, the room code, the host's user id and bearer token. */
  async function hostWithRoom() {
    const user = await signUp(stack.url, 'monthly', 'Edge Host');
    const host = new Participant(stack.url, user.cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Hal' });
    expect(created.status).toBe(200);
    return {
      user,
      host,
      code: created.body.waitingRoom.waitingRoomId as string,
      userId: created.body.userId as string,
      hostToken: created.body.token as string,
      memberToken: cookieNamed('fv_room', created.headers['set-cookie']).split('=')[1],
    };
  }

  async function guestIn(code: string, name = 'Gus') {
    const guest = new Participant(stack.url);
    const joined = await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: name });
    expect(joined.status).toBe(200);
    return { guest, userId: joined.body.userId as string };
  }

  describe('paths are spelt exactly, and every state change is guarded whatever its spelling', () => {
    it('a form login from another site under /API/ neither signs in nor reaches a handler', async () => {
      const user = await signUp(stack.url);
      const form = `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`;
      for (const path of [
        '/API/v1/auth/login',
        '/Api/V1/Auth/Login',
        '/api/v1/auth/LOGIN',
        '/api/v1/auth/login',
      ]) {
        const res = await request(stack.url).post(path).set('Origin', evil).type('form').send(form);
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('refuses every state change from another origin with the victim cookie, in any case', async () => {
      const { user } = await hostWithRoom();
      for (const [method, path] of [
        ['post', '/API/v1/billing/portal/cancel'],
        ['post', '/API/v1/auth/logout'],
        ['post', '/API/v1/waiting-room/create'],
        ['post', '/Api/V1/Feedback'],
        ['patch', '/API/V1/me'],
        ['delete', '/api/v1/me'],
        ['put', '/anything/at/all'],
      ] as const) {
        const call = request(stack.url)[method](path);
        const res = await call.set('Cookie', user.cookie).set('Origin', evil).type('form').send('name=Pwned');
        expect({ path, status: res.status, message: res.body.message }).toEqual({
          path,
          status: 403,
          message: MESSAGES.crossOrigin,
        });
      }
      // The session survived: nothing above logged it out or cancelled anything.
      const me = await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie).expect(200);
      expect(me.body.name).not.toBe('Pwned');
    });

    it('answers 404 to a path in another case, even from the product itself', async () => {
      const user = await signUp(stack.url);
      for (const [method, path] of [
        ['get', '/API/v1/me'],
        ['get', '/api/V1/me'],
        ['post', '/API/v1/auth/verify-token'],
        ['patch', '/api/v1/ME'],
        ['get', '/api/v1/Health'],
      ] as const) {
        const res = await request(stack.url)[method](path).set('Cookie', user.cookie).send({});
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
      await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie).expect(200);
    });

    it('a path parameter that is not valid percent-encoding is a 400, and the gateway stays up', async () => {
      // The access line asks the routes which one a path is; one that cannot decode it is no match.
      for (const path of [
        '/api/v1/plans/%ZZ',
        '/api/v1/plans/%E0%A4%A/calendar.ics',
        '/api/v1/waiting-room/events/%ZZ',
        '/API/V1/PLANS/%ZZ',
      ]) {
        const res = await request(stack.url).get(path);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      await request(stack.url).get('/api/v1/health').expect(200);
      await request(stack.url).get('/api/v1/plans/AAAAAAAAAAAAAAAAAAAAAA').expect(404);
    });

    it('parses a form body only on the local checkout pages', async () => {
      const user = await signUp(stack.url);
      const res = await request(stack.url)
        .patch('/api/v1/me')
        .set('Cookie', user.cookie)
        .set('Origin', stack.url)
        .type('form')
        .send('name=Formed');
      expect(res.status).toBe(415);
      const me = await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie).expect(200);
      expect(me.body.name).not.toBe('Formed');
    });
  });

  describe('bent tokens', () => {
    it('a room cookie or bearer token with non-ASCII bytes is a 401, never a 500', async () => {
      const { code, userId, hostToken, memberToken } = await hostWithRoom();
      const bentCookie = `fv_room=${memberToken.slice(0, -1)}%C3%A9`;
      const cookieCalls: [string, string, object?][] = [
        ['patch', '/api/v1/waiting-room/vote', { waitingRoomId: code, userId, votes: [] }],
        ['patch', '/api/v1/waiting-room/leave', { waitingRoomId: code, userId }],
        ['get', '/api/v1/waiting-room/current'],
        ['get', `/api/v1/waiting-room/events/${code}?userId=${userId}&userName=x`],
      ];
      for (const cookie of [bentCookie, `fv_room=${memberToken}%C3%A9`, `fv_room=%E9${memberToken}`]) {
        for (const [method, path, body] of cookieCalls) {
          const call = request(stack.url)[method as 'get' | 'patch'](path).set('Cookie', cookie);
          const res = await (body ? call.send(body) : call);
          expect({ path, status: res.status }).toEqual({ path, status: 401 });
        }
        // A join with a bent cookie joins as a newcomer: whatever it answers, it is no server error.
        const join = await request(stack.url)
          .patch('/api/v1/waiting-room/join')
          .set('Cookie', cookie)
          .set('X-Forwarded-For', clientAddress())
          .send({ waitingRoomId: code, userName: 'Bent' });
        expect(join.status).toBeLessThan(500);
      }
      for (const bearer of [
        `${hostToken.slice(0, -1)}\u00e9`,
        `${hostToken}\u00ff`,
        `\u00e9${hostToken}`,
        `${hostToken.slice(0, 20)}\u00e9${hostToken.slice(21)}`,
      ]) {
        for (const [path, body] of [
          ['/api/v1/waiting-room/next-batch', { waitingRoomId: code, nextBatchIndex: 1 }],
          ['/api/v1/waiting-room/start', START_SEARCH],
          ['/api/v1/auth/verify-token', {}],
        ] as const) {
          const res = await request(stack.url).post(path).set('Authorization', `Bearer ${bearer}`).send(body);
          expect({ path, status: res.status }).toEqual({ path, status: 401 });
        }
        const me = await request(stack.url).get('/api/v1/me').set('Authorization', `Bearer ${bearer}`);
        expect(me.status).toBe(401);
      }
    });
  });

  describe('login throttling under concurrency', () => {
    const attempt = (email: string, password: string, ip: string) =>
      request(stack.url).post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ email, password });

    it('a hundred wrong logins at once on one account from one address reach the password check ten times', async () => {
      const user = await signUp(stack.url);
      const ip = ADDRESSES.oneAccount;
      const answers = await Promise.all(Array.from({ length: 100 }, () => attempt(user.email, 'wrong!', ip)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(90);
      expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    });

    it('a hundred wrong logins at once on different accounts from one address reach it thirty times', async () => {
      const ip = ADDRESSES.manyAccounts;
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => attempt(uniqueEmail('spray'), 'wrong!', ip)),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(30);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(70);
    });

    it('a right password still counts as no failure: the owner logs in over and over', async () => {
      const user = await signUp(stack.url);
      const ip = ADDRESSES.owner;
      for (let i = 0; i < 35; i++) await attempt(user.email, user.password, ip).expect(200);
    });
  });

  describe('the places bill', () => {
    const nearby = (ip: string) =>
      request(stack.url)
        .get('/api/v1/places/nearby')
        .query({ latitude: 40.75, longitude: -73.99, radius: 5, unit: 'miles', rankPreference: 'popularity' })
        .set('X-Forwarded-For', ip);

    it('an address gets a burst of searches, then 429 in words; another address is not affected', async () => {
      const ip = ADDRESSES.searcher;
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) statuses.push((await nearby(ip)).status);
      expect(statuses.slice(0, 30).every((s) => s !== 429)).toBe(true);
      const refused = await nearby(ip);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe(MESSAGES.tooManySearches);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await nearby(clientAddress())).status).not.toBe(429);
    });

    it('a room may start its search a few times, then 429', async () => {
      const { host, hostToken } = await hostWithRoom();
      const start = () =>
        host.post('/api/v1/waiting-room/start', START_SEARCH, { Authorization: `Bearer ${hostToken}` });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await start()).status);
      expect(statuses[0]).toBe(200);
      expect(statuses.slice(0, 5)).not.toContain(429);
      expect(statuses[5]).toBe(429);
    });

    it('feedback from one address is limited like register', async () => {
      const ip = ADDRESSES.feedback;
      const send = () =>
        request(stack.url)
          .post('/api/v1/feedback')
          .set('X-Forwarded-For', ip)
          .send({ name: 'F', email: 'f@example.com', subject: 'S', message: 'M' });
      for (let i = 0; i < 10; i++) await send().expect(200);
      const refused = await send().expect(429);
      expect(refused.body.message).toBe(MESSAGES.tooManyMessages);
    });

    it('an IPv6 client is counted by its /64: new addresses of one network share its budget', async () => {
      // One /64 of the documentation range, each request from another address in it.
      const network = clientAddress().replace(/::[0-9a-f]*$/, '');
      const send = (host: number) =>
        request(stack.url)
          .post('/api/v1/feedback')
          .set('X-Forwarded-For', `${network}::${host.toString(16)}`)
          .send({ name: 'F', email: 'f@example.com', subject: 'S', message: 'M' });
      for (let i = 1; i <= 10; i++) await send(i).expect(200);
      const refused = await send(11).expect(429);
      expect(refused.body.message).toBe(MESSAGES.tooManyMessages);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // Nothing but Retry-After: no X-RateLimit-* headers on any answer.
      expect(Object.keys(refused.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
      await request(stack.url)
        .post('/api/v1/feedback')
        .set('X-Forwarded-For', clientAddress())
        .send({ name: 'F', email: 'f@example.com', subject: 'S', message: 'M' })
        .expect(200);
    });
  });

  describe('the development outbox', () => {
    it('answers only a caller on this machine, and only when turned on by name', async () => {
      await request(stack.url).get('/api/v1/dev/outbox').expect(200);
      // Through a proxy on this machine for someone elsewhere: as if it did not exist.
      await request(stack.url).get('/api/v1/dev/outbox').set('X-Forwarded-For', '203.0.113.9').expect(404);
      await stack.stopOne('gateway');
      stack.startOne('gateway', 'gateway', { SERVE_DEV_OUTBOX: '' });
      try {
        await stack.waitHealthy(30_000);
        await request(stack.url).get('/api/v1/dev/outbox').expect(404);
      } finally {
        await stack.stopOne('gateway');
        stack.startOne('gateway');
        await stack.waitHealthy(30_000);
      }
    });
  });

  describe('idempotency keys', () => {
    it("a second guest replaying a guest's key gets a 422, never the first guest's identity", async () => {
      const { code } = await hostWithRoom();
      const other = await hostWithRoom();
      const key = randomUUID();
      const first = new Participant(stack.url);
      const joined = await first.patch(
        '/api/v1/waiting-room/join',
        { waitingRoomId: code, userName: 'Ann' },
        { 'Idempotency-Key': key },
      );
      expect(joined.status).toBe(200);
      for (const body of [
        { waitingRoomId: code, userName: 'Bob' },
        { waitingRoomId: other.code, userName: 'Ann' },
      ]) {
        const replay = await new Participant(stack.url).patch('/api/v1/waiting-room/join', body, {
          'Idempotency-Key': key,
        });
        expect(replay.status).toBe(422);
        expect(replay.body.message).toBe(ROOM_MESSAGES.idempotencyKeyReused);
        expect(replay.headers['set-cookie']).toBeUndefined();
        expect(JSON.stringify(replay.body)).not.toContain(joined.body.userId);
      }
      // The same request again (a retry of the first guest's own) answers what it answered.
      const retry = await first.patch(
        '/api/v1/waiting-room/join',
        { waitingRoomId: code, userName: 'Ann' },
        { 'Idempotency-Key': key },
      );
      expect(retry.status).toBe(200);
      expect(retry.body.userId).toBe(joined.body.userId);
    });

    it('a vote or a create replayed with another body is a 422', async () => {
      const { host, code, userId, hostToken } = await hostWithRoom();
      const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
        Authorization: `Bearer ${hostToken}`,
      });
      expect(started.status).toBe(200);
      const places = (started.body.places as { id: string }[]).slice(0, 5);
      const { guest } = await guestIn(code);
      void guest;
      const key = randomUUID();
      const ballot = (voteType: 'up' | 'down') => ({
        waitingRoomId: code,
        userId,
        votes: places.map((p) => ({ placeId: p.id, voteType })),
      });
      await host.patch('/api/v1/waiting-room/vote', ballot('up'), { 'Idempotency-Key': key }).then((r) => {
        expect(r.status).toBe(200);
      });
      expect(
        (await host.patch('/api/v1/waiting-room/vote', ballot('up'), { 'Idempotency-Key': key })).status,
      ).toBe(200);
      const changed = await host.patch('/api/v1/waiting-room/vote', ballot('down'), {
        'Idempotency-Key': key,
      });
      expect(changed.status).toBe(422);
      expect(changed.body.message).toBe(ROOM_MESSAGES.idempotencyKeyReused);

      const user = await signUp(stack.url, 'monthly', 'Kay Key');
      const creator = new Participant(stack.url, user.cookie);
      const createKey = randomUUID();
      const made = await creator.post(
        '/api/v1/waiting-room/create',
        { userName: 'Kay' },
        { 'Idempotency-Key': createKey },
      );
      expect(made.status).toBe(200);
      const again = await creator.post(
        '/api/v1/waiting-room/create',
        { userName: 'Kay' },
        { 'Idempotency-Key': createKey },
      );
      expect(again.body.waitingRoom.waitingRoomId).toBe(made.body.waitingRoom.waitingRoomId);
      const renamed = await creator.post(
        '/api/v1/waiting-room/create',
        { userName: 'Other' },
        { 'Idempotency-Key': createKey },
      );
      expect(renamed.status).toBe(422);
    });
  });

  describe('event streams', () => {
    const endsWithin = async (closed: Promise<void>, ms: number) =>
      Promise.race([closed.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

    it("a member's streams end within a second of leaving, and cannot be opened again", async () => {
      const { host, code, userId: hostId } = await hostWithRoom();
      const { guest, userId } = await guestIn(code);
      const streams = [await guest.events(code, userId), await guest.events(code, userId)];
      const hostStream = await host.events(code, hostId);
      const cookie = guest.cookieHeader;
      await guest.patch('/api/v1/waiting-room/leave', { waitingRoomId: code, userId }).then((r) => {
        expect(r.status).toBe(200);
      });
      for (const stream of streams) expect(await endsWithin(stream.closed, 1500)).toBe(true);
      expect(await endsWithin(hostStream.closed, 300)).toBe(false);
      // With the cookie it held before leaving: refused.
      const again = await request(stack.url)
        .get(`/api/v1/waiting-room/events/${code}?userId=${userId}&userName=x`)
        .set('Cookie', cookie);
      expect(again.status).toBe(403);
      hostStream.close();
    });

    it('every stream of a room ends within a second of the host closing it', async () => {
      const { host, code, userId: hostId } = await hostWithRoom();
      const a = await guestIn(code, 'Ada');
      const b = await guestIn(code, 'Bea');
      const streams = [
        await host.events(code, hostId),
        await a.guest.events(code, a.userId),
        await b.guest.events(code, b.userId),
      ];
      await host.patch('/api/v1/waiting-room/leave', { waitingRoomId: code, userId: hostId }).then((r) => {
        expect(r.status).toBe(200);
      });
      for (const stream of streams) expect(await endsWithin(stream.closed, 1500)).toBe(true);
      const reopened = await request(stack.url)
        .get(`/api/v1/waiting-room/events/${code}?userId=${a.userId}&userName=x`)
        .set('Cookie', a.guest.cookieHeader);
      expect(reopened.status).toBe(403);
    });

    it('one member holds at most five streams; a sixth is a 429', async () => {
      const { code } = await hostWithRoom();
      const { guest, userId } = await guestIn(code);
      const open = [];
      for (let i = 0; i < 5; i++) open.push(await guest.events(code, userId));
      const sixth = await guest.events(code, userId).then(
        () => 200,
        (err: { status?: number; body?: string }) => {
          expect(JSON.parse(err.body ?? '{}').message).toBe(ROOM_MESSAGES.tooManyStreams);
          return err.status;
        },
      );
      expect(sixth).toBe(429);
      open.pop()!.close();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await guest.events(code, userId);
      again.close();
      for (const stream of open) stream.close();
    });
  });

  describe('private answers', () => {
    it('every answer that depends on a cookie or a bearer token says no-store', async () => {
      const { user, host } = await hostWithRoom();
      for (const [path, res] of [
        ['/me', await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie)],
        ['/me/stripe', await request(stack.url).get('/api/v1/me/stripe').set('Cookie', user.cookie)],
        [
          'verify-token',
          await request(stack.url).post('/api/v1/auth/verify-token').set('Cookie', user.cookie),
        ],
        ['current', await host.get('/api/v1/waiting-room/current')],
        ['/me refused', await request(stack.url).get('/api/v1/me')],
      ] as const) {
        expect({ path, cache: res.headers['cache-control'] }).toEqual({ path, cache: 'no-store' });
      }
    });
  });

  describe('slow clients', () => {
    /** Sends `text` on a raw socket and answers when the server closes it (ms), or -1 after `limitMs`. */
    const heldFor = (text: string, limitMs: number) =>
      new Promise<{ ms: number; answer: string }>((resolve) => {
        const started = Date.now();
        const socket = connect(Number(new URL(stack.url).port), '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        const timer = setTimeout(() => {
          socket.destroy();
          resolve({ ms: -1, answer });
        }, limitMs);
        socket.on('close', () => {
          clearTimeout(timer);
          resolve({ ms: Date.now() - started, answer });
        });
        socket.on('error', () => undefined);
      });

    it('partial headers and a partial body are cut off at the server timeouts, not held for minutes', async () => {
      const headers = await heldFor('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ', 10_000);
      expect(headers.ms).toBeGreaterThan(0);
      expect(headers.ms).toBeLessThan(6000);
      const body = await heldFor(
        'POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na',
        10_000,
      );
      expect(body.ms).toBeGreaterThan(0);
      expect(body.ms).toBeLessThan(7000);
      expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
    });
  });

  describe('health', () => {
    it('the public answer says up or degraded per part in words, and is reused for a few seconds', async () => {
      const first = await request(stack.url).get('/api/v1/health').expect(200);
      const text = JSON.stringify(first.body);
      for (const word of ['instance', 'latency', 'mode', 'error', 'redis', 'billing']) {
        expect(text).not.toContain(word);
      }
      const second = await request(stack.url).get('/api/v1/health').expect(200);
      expect(second.body.checkedAt).toBe(first.body.checkedAt);
      // The operators' report is on the metrics listener, not the public port.
      const detail = (await (await fetch(`http://127.0.0.1:${metricsPort}/health`)).json()) as SystemHealth;
      expect(detail.services.map((s: { service: string }) => s.service)).toEqual([
        'auth',
        'rooms',
        'billing',
        'places',
      ]);
    });

    it('the metrics listener answers on loopback only', async () => {
      await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => expect(r.status).toBe(200));
      const outside = Object.values(networkInterfaces())
        .flat()
        .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
      if (!outside) return; // a machine with no other address has nothing more to show
      const reached = await fetch(`http://${outside}:${metricsPort}/metrics`).then(
        () => true,
        () => false,
      );
      expect(reached).toBe(false);
    });
  });
});
