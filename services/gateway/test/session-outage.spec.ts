import { MESSAGES, ROOM_EVENTS } from '@forkvote/contracts';
import { roomEventKeys } from '@forkvote/room-events';
import {
  freePort,
  login,
  Participant,
  signUp,
  START_SEARCH,
  startRedisServer as startRedis,
  startTestStack,
  TestStack,
} from '@forkvote/testing';
import Redis from 'ioredis';
import { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import request from 'supertest';

const stopped = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

/**
 * Redis is a cache of sessions, never their record: while it is down a valid session gets 503 (not 401,
 * which the web app would show as a logout) and login gets 503 (not 500); once it is back, empty, valid
 * sessions work again and revoked ones stay revoked.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The 503s a person may see while Redis is down. */
const PLAIN_UNAVAILABLE = [
  MESSAGES.serviceUnavailable,
  'The rooms service cannot be reached. Please try again.',
  'The rooms service did not answer in time. Please try again.',
];

describe('sessions and a running flow through a Redis outage', () => {
  let stack: TestStack;
  let redis: ChildProcess;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    stack = await startTestStack({ REDIS_URL: `redis://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await stack?.stop();
    if (redis.exitCode === null) {
      redis.kill('SIGKILL');
      await stopped(redis);
    }
  });

  it('answers 503 while Redis is down and keeps revocations when it comes back empty', async () => {
    const user = await signUp(stack.url);
    const loggedOut = await login(stack.url, user.email, user.password);
    await request(stack.url).post('/api/v1/auth/logout').set('Cookie', loggedOut).expect(200);

    redis.kill('SIGKILL');
    await stopped(redis);

    const me = await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie);
    expect(me.status).toBe(503);
    expect(me.body.message).toBe(MESSAGES.serviceUnavailable);
    expect(
      (await request(stack.url).post('/api/v1/auth/verify-token').set('Cookie', user.cookie)).status,
    ).toBe(503);
    // The web app's own check (X-Session-Optional): a session it cannot look up now is a 503, never the
    // signed-out answer, which would sign its user out; a browser with no session is signed out as ever.
    const optional = () =>
      request(stack.url).post('/api/v1/auth/verify-token').set('X-Session-Optional', '1');
    const unchecked = await optional().set('Cookie', user.cookie);
    expect(unchecked.status).toBe(503);
    expect(unchecked.body.message).toBe(MESSAGES.serviceUnavailable);
    const anonymous = await optional();
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ isAuthenticated: false, isAuthorized: false });
    const loginDuringOutage = await request(stack.url)
      .post('/api/v1/auth/login')
      .send({ email: user.email, password: user.password });
    expect(loginDuringOutage.status).toBe(503);
    // A limited route whose counters cannot be reached: 503, never let through uncounted, never a 500.
    const feedback = await request(stack.url)
      .post('/api/v1/feedback')
      .send({ name: 'F', email: 'f@example.com', subject: 'S', message: 'M' });
    expect(feedback.status).toBe(503);
    expect(feedback.body.message).toBe(MESSAGES.serviceUnavailable);

    redis = await startRedis(port);
    const deadline = Date.now() + 30_000;
    let back = await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie);
    while (back.status !== 200 && Date.now() < deadline) {
      expect(back.status).not.toBe(401);
      await new Promise((resolve) => setTimeout(resolve, 250));
      back = await request(stack.url).get('/api/v1/me').set('Cookie', user.cookie);
    }
    expect(back.status).toBe(200);
    await request(stack.url).get('/api/v1/me').set('Cookie', loggedOut).expect(401);
    await login(stack.url, user.email, user.password);
  });

  it('keeps a voting flow going through 10 s without Redis: only 503s meanwhile, nothing lost after', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'lifetime', 'Olly Outage')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Olly' });
    const code = created.body.waitingRoom.waitingRoomId as string;
    const roomId = JSON.parse(Buffer.from(created.body.token.split('.')[1], 'base64url').toString()).roomId;
    const guest = new Participant(stack.url);
    const joined = await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'Gale' });
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
    });
    const votes = (started.body.places as { id: string }[])
      .slice(0, 5)
      .map((p) => ({ placeId: p.id, voteType: 'up' }));
    expect(
      (
        await host.patch('/api/v1/waiting-room/vote', {
          waitingRoomId: code,
          userId: created.body.userId,
          votes,
        })
      ).status,
    ).toBe(200);

    redis.kill('SIGKILL');
    await stopped(redis);
    const outageEnds = Date.now() + 10_000;
    const seen: Record<string, number[]> = { vote: [], me: [], current: [] };
    const unavailable = new Set<string>();
    const key = randomUUID();
    const vote = () =>
      guest.patch(
        '/api/v1/waiting-room/vote',
        { waitingRoomId: code, userId: joined.body.userId, votes },
        { 'Idempotency-Key': key },
      );
    let voted = false;
    let restarted = false;
    const deadline = Date.now() + 45_000;
    while (!voted && Date.now() < deadline) {
      if (!restarted && Date.now() >= outageEnds) {
        redis = await startRedis(port);
        restarted = true;
      }
      const [v, me, current] = await Promise.all([
        vote(),
        host.get('/api/v1/me'),
        host.get('/api/v1/waiting-room/current'),
      ]);
      seen.vote.push(v.status);
      seen.me.push(me.status);
      seen.current.push(current.status);
      for (const answer of [v, me, current]) {
        if (answer.status === 503) unavailable.add(answer.body.message);
      }
      voted = restarted && v.status === 200;
      await sleep(300);
    }
    const all = [...seen.vote, ...seen.me, ...seen.current];
    expect(all.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(all.filter((status) => status === 401 || status === 403)).toEqual([]);
    expect(seen.vote.filter((status) => status === 503).length).toBeGreaterThan(0);
    // Each 503 says which part is out of reach in words a person can read; Redis's own words stay in the log.
    expect([...unavailable].filter((message) => !PLAIN_UNAVAILABLE.includes(message))).toEqual([]);
    expect(voted).toBe(true);

    // Nothing lost: the room reached results, and its BALLOTS_SUBMITTED reached the new Redis, once.
    const current = await host.get('/api/v1/waiting-room/current');
    expect(current.body.waitingRoom.state).toBe('results');
    const probe = new Redis(`redis://127.0.0.1:${port}`);
    try {
      const log = async () =>
        (
          (await probe.xrange(roomEventKeys.log(stack.redisPrefix, roomId), '-', '+')) as [string, string[]][]
        ).filter(([, fields]) => fields[1] === ROOM_EVENTS.ballotsSubmitted).length;
      const until = Date.now() + 10_000;
      while ((await log()) === 0 && Date.now() < until) await sleep(100);
      expect(await log()).toBe(1);
    } finally {
      probe.disconnect();
    }
  });
});
