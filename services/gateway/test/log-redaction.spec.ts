import {
  checkoutCookie,
  clientAddress,
  cookieNamed,
  DEV_RECAPTCHA_TOKEN,
  Participant,
  START_SEARCH,
  startTestStack,
  TestStack,
  uniqueEmail,
} from '@forkvote/testing';
import request from 'supertest';

/**
 * Runs a whole flow with every process logging at its most verbose, then searches every line any of them
 * printed for each secret the flow handled: passwords, the reset token, session, device, checkout and
 * room tokens. None may appear.
 */
describe('logs hold no secrets', () => {
  let stack: TestStack;
  const lines: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ LOG_LEVEL: 'verbose' }, (line) => lines.push(line));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('after register, checkout, login, a room, a vote, a password reset and logout', async () => {
    const secrets: Record<string, string> = {};
    const ip = clientAddress();
    const api = () => ({
      post: (path: string) => request(stack.url).post(path).set('X-Forwarded-For', ip),
      get: (path: string) => request(stack.url).get(path).set('X-Forwarded-For', ip),
    });
    const email = uniqueEmail('quiet');
    secrets.password = 'first password of quiet';
    const reg = await api()
      .post('/api/v1/auth/register')
      .send({
        email,
        password: secrets.password,
        name: 'Quinn Quiet',
        plan: 'monthly',
        acceptTermsOfService: true,
        recaptchaToken: DEV_RECAPTCHA_TOKEN,
      })
      .expect(200);
    const checkout = checkoutCookie(reg.headers['set-cookie']);
    secrets.checkout = checkout.split('=')[1];
    await api().post(`${reg.body.stripeCheckoutUrl}/complete`).set('Cookie', checkout).expect(303);

    secrets.wrongPassword = 'a wrong guess at the password';
    await api().post('/api/v1/auth/login').send({ email, password: secrets.wrongPassword }).expect(401);
    const loggedIn = await api()
      .post('/api/v1/auth/login')
      .send({ email, password: secrets.password })
      .expect(200);
    secrets.session = cookieNamed('fv_session', loggedIn.headers['set-cookie']).split('=')[1];
    secrets.device = cookieNamed('fv_device', loggedIn.headers['set-cookie']).split('=')[1];

    const host = new Participant(stack.url, `fv_session=${secrets.session}`);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Quinn' });
    expect(created.status).toBe(200);
    secrets.hostToken = created.body.token;
    secrets.hostMember = cookieNamed('fv_room', created.headers['set-cookie']).split('=')[1];
    const code = created.body.waitingRoom.waitingRoomId;
    const guest = new Participant(stack.url);
    const joined = await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: code, userName: 'Gil' });
    expect(joined.status).toBe(200);
    secrets.guestMember = cookieNamed('fv_room', joined.headers['set-cookie']).split('=')[1];
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${secrets.hostToken}`,
    });
    expect(started.status).toBe(200);
    const batch = (started.body.places as { id: string }[]).slice(0, 5);
    const votes = batch.map((p) => ({ placeId: p.id, voteType: 'up' }));
    expect(
      (
        await guest.patch('/api/v1/waiting-room/vote', {
          waitingRoomId: code,
          userId: joined.body.userId,
          votes,
        })
      ).status,
    ).toBe(200);
    expect(
      (await guest.patch('/api/v1/waiting-room/leave', { waitingRoomId: code, userId: joined.body.userId }))
        .status,
    ).toBe(200);

    await api().post('/api/v1/auth/reset-password').send({ email }).expect(200);
    const outbox = await request(stack.url).get('/api/v1/dev/outbox').expect(200);
    secrets.resetToken = /token=(\S+)/.exec(outbox.body.find((m: { to: string }) => m.to === email).text)![1];
    secrets.newPassword = 'second password of quiet';
    await api()
      .post('/api/v1/auth/reset-password-token')
      .send({ token: secrets.resetToken, password: secrets.newPassword })
      .expect(200);
    // The old session died with the reset; a forged one and the new one go through every check.
    await api().get('/api/v1/me').set('Cookie', `fv_session=${secrets.session}`).expect(401);
    const again = await api()
      .post('/api/v1/auth/login')
      .send({ email, password: secrets.newPassword })
      .expect(200);
    secrets.newSession = cookieNamed('fv_session', again.headers['set-cookie']).split('=')[1];
    await api().post('/api/v1/auth/logout').set('Cookie', `fv_session=${secrets.newSession}`).expect(200);

    await stack.stop();
    const log = lines.join('\n');
    // The capture worked: the processes did log, verbosely.
    expect(lines.length).toBeGreaterThan(20);
    expect(log).toContain('auth service is listening');
    for (const [name, value] of Object.entries(secrets)) {
      expect({ name, found: log.includes(value) }).toEqual({ name, found: false });
    }
    expect(log).not.toMatch(/fv_(session|room|checkout|device)=/);
  });
});
