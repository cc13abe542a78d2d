import { MESSAGES } from '@forkvote/contracts';
import { freePort, login, signUp, startTestStack, TestStack } from '@forkvote/testing';
import { ChildProcess, spawn } from 'node:child_process';
import request from 'supertest';

/** A Redis of this test's own, on its own port, that the test can kill and start again empty. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const up = await fetch(`http://127.0.0.1:${port}`).then(
      () => true,
      (err: { cause?: { code?: string } }) => err.cause?.code !== 'ECONNREFUSED',
    );
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`redis-server did not start on ${port}`);
}

const stopped = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));

/**
 * Redis is a cache of sessions, never their record: while it is down a valid session gets 503 (not 401,
 * which the web app would show as a logout) and login gets 503 (not 500); once it is back, empty, valid
 * sessions work again and revoked ones stay revoked.
 */
describe('sessions through a Redis outage', () => {
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
    const loginDuringOutage = await request(stack.url)
      .post('/api/v1/auth/login')
      .send({ email: user.email, password: user.password });
    expect(loginDuringOutage.status).toBe(503);

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
});
