import { MESSAGES } from '@forkvote/contracts';
import {
  checkoutCookie,
  clientAddress,
  DEV_RECAPTCHA_TOKEN,
  login,
  sessionCookie,
  signUp,
  startTestStack,
  TestStack,
  uniqueEmail,
} from '@forkvote/testing';
import request from 'supertest';

/** Accounts, sessions, password reset, profile, feedback and offline billing, through the gateway. */
describe('accounts through the gateway', () => {
  let stack: TestStack;
  /** Each call as if from another person; the throttling test pins one address. */
  const api = () => {
    const agent = request(stack.url);
    const ip = clientAddress();
    const as = <T extends { set(name: string, value: string): T }>(test: T) =>
      test.set('X-Forwarded-For', ip);
    return {
      get: (path: string) => as(agent.get(path)),
      post: (path: string) => as(agent.post(path)),
      patch: (path: string) => as(agent.patch(path)),
    };
  };

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const registration = (overrides: Record<string, unknown> = {}) => ({
    email: uniqueEmail('reg'),
    password: 'secret12',
    name: 'Reg Ister',
    plan: 'monthly',
    acceptTermsOfService: true,
    contactMeForUserFeedback: true,
    recaptchaToken: DEV_RECAPTCHA_TOKEN,
    ...overrides,
  });

  describe('register', () => {
    it.each(['monthly', 'yearly', 'lifetime'])('answers a checkout address for the %s plan', async (plan) => {
      const res = await api().post('/api/v1/auth/register').send(registration({ plan })).expect(200);
      expect(res.body).toEqual({
        stripeCheckoutUrl: expect.stringMatching(/^\/api\/v1\/billing\/checkout\/[0-9a-f-]{36}$/),
        testMode: true,
      });
      const page = await api()
        .get(res.body.stripeCheckoutUrl)
        .set('Cookie', checkoutCookie(res.headers['set-cookie']))
        .expect(200);
      expect(page.text).toContain('TEST MODE');
      expect(page.text).toContain({ monthly: '$1.99', yearly: '$19.99', lifetime: '$49.99' }[plan]);
    });

    it('refuses an email already in use with 409, whatever its case', async () => {
      const body = registration();
      await api().post('/api/v1/auth/register').send(body).expect(200);
      const res = await api()
        .post('/api/v1/auth/register')
        .send({ ...body, email: body.email.toUpperCase() })
        .expect(409);
      expect(res.body.message).toBe(MESSAGES.emailInUse);
    });

    it('refuses a failed bot check with 403', async () => {
      const res = await api()
        .post('/api/v1/auth/register')
        .send(registration({ recaptchaToken: 'forged' }))
        .expect(403);
      expect(res.body.message).toBe(MESSAGES.recaptchaFailed);
    });

    it.each([
      ['a bad email', { email: 'not-an-email' }, MESSAGES.invalidEmail],
      ['a short password', { password: 'five5' }, MESSAGES.passwordTooShort],
      ['a blank name', { name: '   ' }, MESSAGES.fullNameRequired],
      ['terms not accepted', { acceptTermsOfService: false }, MESSAGES.acceptTerms],
      ['an unknown plan', { plan: 'weekly' }, MESSAGES.invalidPlan],
      [
        'a wrong type',
        { contactMeForUserFeedback: 'yes' },
        'contactMeForUserFeedback must be a boolean value',
      ],
      ['an extra field', { isAdmin: true }, 'property isAdmin should not exist'],
      ['a 1 MB name', { name: 'x'.repeat(1_000_000) }, 'Name must be at most 100 characters long'],
    ])('answers 400 for %s', async (_, overrides, message) => {
      const res = await api().post('/api/v1/auth/register').send(registration(overrides)).expect(400);
      expect(res.body.message).toBe(message);
    });

    it('answers 400 for missing fields and for a body that is not JSON', async () => {
      const missing = await api().post('/api/v1/auth/register').send({}).expect(400);
      expect(missing.body.message).toContain(MESSAGES.invalidEmail);
      expect(missing.body.message).toContain(MESSAGES.acceptTerms);
      await api()
        .post('/api/v1/auth/register')
        .set('Content-Type', 'application/json')
        .send('{"email": ')
        .expect(400);
    });
  });

  describe('checkout, login and billing state', () => {
    it('registers with a trial plan, completes the offline checkout, logs in and sees trialing', async () => {
      const user = await signUp(stack.url, 'monthly', 'Tina Trial');
      const verified = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(verified.body).toEqual({
        isAuthenticated: true,
        isAuthorized: true,
        userId: expect.any(String),
        name: 'Tina Trial',
        email: user.email,
        canCreateRooms: true,
        roles: ['user', 'host'],
        subscriptionStatus: 'trialing',
        isGuest: false,
      });
      const billing = await api().get('/api/v1/me/stripe').set('Cookie', user.cookie).expect(200);
      expect(billing.body.stripeCustomer).toMatchObject({
        id: expect.stringMatching(/^cus_/),
        email: user.email,
      });
      expect(billing.body.customerPortalUrl).toBe('/api/v1/billing/portal');
      const [subscription] = billing.body.stripeSubscriptions;
      expect(subscription).toMatchObject({
        status: 'trialing',
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        items: { data: [{ plan: { interval: 'month', amount: 199 } }] },
      });
      expect(subscription.trial_end - subscription.trial_start).toBe(7 * 86_400);
      expect(subscription.items.data[0].current_period_end).toBe(subscription.trial_end);
    });

    it('gives lifetime access for the lifetime plan', async () => {
      const user = await signUp(stack.url, 'lifetime');
      const me = await api().get('/api/v1/me').set('Cookie', user.cookie).expect(200);
      expect(me.body.hasLifetimeAccess).toBe(true);
      expect(new Date(me.body.lifetimeAccessPurchasedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
      const verified = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(verified.body).toMatchObject({ canCreateRooms: true, subscriptionStatus: 'lifetime' });
    });

    it('a canceled subscriber may not host and can subscribe again', async () => {
      const user = await signUp(stack.url, 'yearly');
      // A page load before the change: the gateway keeps this answer, and must not show it after.
      const subscribed = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(subscribed.body).toMatchObject({ canCreateRooms: true, subscriptionStatus: 'trialing' });
      await api().post('/api/v1/billing/portal/cancel').set('Cookie', user.cookie).expect(303);
      const verified = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(verified.body).toMatchObject({
        canCreateRooms: false,
        roles: ['user'],
        subscriptionStatus: 'canceled',
      });
      const billing = await api().get('/api/v1/me/stripe').set('Cookie', user.cookie).expect(200);
      expect(billing.body.stripeSubscriptions[0]).toMatchObject({
        status: 'canceled',
        canceled_at: expect.any(Number),
      });

      const again = await api()
        .post('/api/v1/auth/subscribe')
        .set('Cookie', user.cookie)
        .send({ plan: 'monthly' })
        .expect(200);
      // The owner's session completes its own checkout, no checkout cookie needed.
      await api().post(`${again.body.stripeCheckoutUrl}/complete`).set('Cookie', user.cookie).expect(303);
      const after = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(after.body).toMatchObject({ canCreateRooms: true, subscriptionStatus: 'trialing' });
    });

    it('refuses to subscribe someone who already has an active plan', async () => {
      const user = await signUp(stack.url, 'monthly');
      const res = await api()
        .post('/api/v1/auth/subscribe')
        .set('Cookie', user.cookie)
        .send({ plan: 'yearly' })
        .expect(409);
      expect(res.body.message).toBe(MESSAGES.alreadySubscribed);
    });

    it('a cancelled checkout leaves the account without hosting rights', async () => {
      const body = registration();
      const res = await api().post('/api/v1/auth/register').send(body).expect(200);
      const secret = checkoutCookie(res.headers['set-cookie']);
      const cancelled = await api()
        .post(`${res.body.stripeCheckoutUrl}/cancel`)
        .set('Cookie', secret)
        .expect(303);
      expect(cancelled.headers.location).toBe('/payment/cancel');
      await api().post(`${res.body.stripeCheckoutUrl}/complete`).set('Cookie', secret).expect(409);
      const cookie = await login(stack.url, body.email, body.password);
      const verified = await api().post('/api/v1/auth/verify-token').set('Cookie', cookie).expect(200);
      expect(verified.body).toMatchObject({ canCreateRooms: false, subscriptionStatus: 'none' });
    });

    it('refuses a wrong password with 401', async () => {
      const user = await signUp(stack.url);
      const res = await api()
        .post('/api/v1/auth/login')
        .send({ email: user.email, password: 'wrong password' })
        .expect(401);
      expect(res.body.message).toBe(MESSAGES.invalidCredentials);
      await api().post('/api/v1/auth/login').send({ email: uniqueEmail(), password: 'whatever' }).expect(401);
    });

    it('sets an httpOnly SameSite=Lax cookie, persistent for 30 days only with rememberMe', async () => {
      const user = await signUp(stack.url);
      const session = await api()
        .post('/api/v1/auth/login')
        .send({ email: user.email, password: user.password })
        .expect(200);
      const sessionSetCookie = (res: { headers: Record<string, unknown> }) =>
        ([] as string[])
          .concat(res.headers['set-cookie'] as string[])
          .find((c) => c.startsWith('fv_session='))!;
      const plain = sessionSetCookie(session);
      expect(plain).toMatch(/HttpOnly/);
      expect(plain).toMatch(/SameSite=Lax/);
      expect(plain).not.toMatch(/Max-Age|Expires/);
      const remembered = await api()
        .post('/api/v1/auth/login')
        .send({ email: user.email, password: user.password, rememberMe: true })
        .expect(200);
      expect(sessionSetCookie(remembered)).toMatch(/Max-Age=2592000/);
    });
  });

  describe('sessions', () => {
    it('answers 401 without a session, with a forged one, and with a revoked one', async () => {
      await api().get('/api/v1/me').expect(401);
      const forged = await api()
        .post('/api/v1/auth/verify-token')
        .set('Cookie', 'fv_session=eyJhbGciOiJIUzI1NiJ9.e30.x')
        .expect(401);
      expect(forged.body.message).toBe(MESSAGES.tokenVerificationFailed);

      const user = await signUp(stack.url);
      const copy = user.cookie;
      const out = await api().post('/api/v1/auth/logout').set('Cookie', user.cookie).expect(200);
      expect(([] as string[]).concat(out.headers['set-cookie'])[0]).toMatch(/fv_session=;/);
      await api().get('/api/v1/me').set('Cookie', copy).expect(401);
      await api()
        .get('/api/v1/me')
        .set('Authorization', `Bearer ${copy.split('=')[1]}`)
        .expect(401);
    });

    it('answers a browser that sends X-Session-Optional as signed out (200), not 401; a live session as itself', async () => {
      const optional = () => api().post('/api/v1/auth/verify-token').set('X-Session-Optional', '1');
      const anonymous = await optional().expect(200);
      expect(anonymous.body).toMatchObject({ isAuthenticated: false, isAuthorized: false, userId: '' });
      const forged = await optional().set('Cookie', 'fv_session=eyJhbGciOiJIUzI1NiJ9.e30.x').expect(200);
      expect(forged.body.isAuthenticated).toBe(false);

      const user = await signUp(stack.url);
      const live = await optional().set('Cookie', user.cookie).expect(200);
      expect(live.body).toMatchObject({ isAuthenticated: true, isAuthorized: true, email: user.email });
      await api().post('/api/v1/auth/logout').set('Cookie', user.cookie).expect(200);
      expect((await optional().set('Cookie', user.cookie).expect(200)).body.isAuthenticated).toBe(false);
      // Any other value is no opt-in: the SPEC's 401.
      await api().post('/api/v1/auth/verify-token').set('X-Session-Optional', 'yes').expect(401);
    });

    it('accepts the session as a bearer token too', async () => {
      const user = await signUp(stack.url);
      await api()
        .get('/api/v1/me')
        .set('Authorization', `Bearer ${user.cookie.split('=')[1]}`)
        .expect(200);
    });
  });

  describe('password reset', () => {
    const latestLink = async (email: string) => {
      // Read as the developer on this machine would (no client address from a proxy).
      const outbox = await request(stack.url).get('/api/v1/dev/outbox').expect(200);
      const mail = outbox.body.find((m: { to: string }) => m.to === email);
      return mail ? /token=(\S+)/.exec(mail.text)![1] : undefined;
    };

    it('mails a single-use link; the new password works, the old one and old sessions do not', async () => {
      const user = await signUp(stack.url);
      const asked = await api().post('/api/v1/auth/reset-password').send({ email: user.email }).expect(200);
      expect(asked.body.message).toBe(MESSAGES.resetPasswordEmailSent);
      const token = await latestLink(user.email);
      expect(token).toBeDefined();

      const same = await api()
        .post('/api/v1/auth/reset-password-token')
        .send({ token, password: user.password })
        .expect(400);
      expect(same.body.message).toBe(MESSAGES.resetSamePassword);
      // A session opened before the reset stops working after it.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const done = await api()
        .post('/api/v1/auth/reset-password-token')
        .send({ token, password: 'brand new pw' })
        .expect(200);
      expect(done.body.message).toBe(MESSAGES.resetSuccess);
      await api().get('/api/v1/me').set('Cookie', user.cookie).expect(401);

      const reused = await api()
        .post('/api/v1/auth/reset-password-token')
        .send({ token, password: 'another pw' })
        .expect(404);
      expect(reused.body.message).toBe(MESSAGES.resetTokenInvalid);
      await api().post('/api/v1/auth/login').send({ email: user.email, password: user.password }).expect(401);
      await login(stack.url, user.email, 'brand new pw');
    });

    it('answers the same for an unknown email and sends nothing', async () => {
      const email = uniqueEmail('ghost');
      const res = await api().post('/api/v1/auth/reset-password').send({ email }).expect(200);
      expect(res.body.message).toBe(MESSAGES.resetPasswordEmailSent);
      expect(await latestLink(email)).toBeUndefined();
    });

    it('refuses an unknown token with 404 and a missing one with 400', async () => {
      const res = await api()
        .post('/api/v1/auth/reset-password-token')
        .send({ token: 'nope', password: 'whatever1' })
        .expect(404);
      expect(res.body.message).toBe(MESSAGES.resetTokenInvalid);
      const missing = await api()
        .post('/api/v1/auth/reset-password-token')
        .send({ password: 'whatever1' })
        .expect(400);
      expect(missing.body.message).toBe(MESSAGES.invalidToken);
    });
  });

  describe('profile', () => {
    it('reads and updates the profile', async () => {
      const user = await signUp(stack.url, 'monthly', 'Pat Profile');
      const before = await api().get('/api/v1/me').set('Cookie', user.cookie).expect(200);
      expect(before.body).toEqual({
        name: 'Pat Profile',
        email: user.email,
        defaultZipcode: null,
        contactMeForUserFeedback: false,
        restaurantTypesToInclude: [],
        restaurantTypesToExclude: [],
        limits: { diet: null, maxPriceLevel: null, maxDistanceMeters: null },
        hasLifetimeAccess: false,
        lifetimeAccessPurchasedAt: null,
      });
      // The gateway now holds this account's answer; the rename below must still show in the next one.
      const cached = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(cached.body.name).toBe('Pat Profile');
      const updated = await api()
        .patch('/api/v1/me')
        .set('Cookie', user.cookie)
        .send({
          name: '  Pat P.  ',
          defaultZipcode: '10001',
          contactMeForUserFeedback: true,
          restaurantTypesToInclude: ['thai_restaurant', 'sushi_restaurant'],
          restaurantTypesToExclude: ['bar', 'thai_restaurant'],
        })
        .expect(200);
      expect(updated.body).toMatchObject({
        name: 'Pat P.',
        defaultZipcode: '10001',
        contactMeForUserFeedback: true,
        restaurantTypesToInclude: ['thai_restaurant', 'sushi_restaurant'],
        restaurantTypesToExclude: ['bar'],
      });
      const cleared = await api()
        .patch('/api/v1/me')
        .set('Cookie', user.cookie)
        .send({ defaultZipcode: '' })
        .expect(200);
      expect(cleared.body.defaultZipcode).toBeNull();
      const verified = await api().post('/api/v1/auth/verify-token').set('Cookie', user.cookie).expect(200);
      expect(verified.body.name).toBe('Pat P.');
    });

    it.each([
      [{ name: '  ' }, MESSAGES.nameRequired],
      [{ defaultZipcode: '1234' }, MESSAGES.invalidZipcode],
      [{ restaurantTypesToInclude: ['space_restaurant'] }, 'Unknown restaurant type'],
      [{ email: 'new@example.com' }, 'property email should not exist'],
    ])('refuses %j with 400', async (body, message) => {
      const user = await signUp(stack.url);
      const res = await api().patch('/api/v1/me').set('Cookie', user.cookie).send(body).expect(400);
      expect(res.body.message).toBe(message);
    });
  });

  describe('feedback', () => {
    it('stores feedback and thanks the sender', async () => {
      const res = await api()
        .post('/api/v1/feedback')
        .send({
          name: 'Fay',
          email: 'fay@example.com',
          subject: 'Nice',
          message: 'We found a place in two minutes.',
        })
        .expect(200);
      expect(res.body.message).toBe(MESSAGES.feedbackThanks);
    });

    it('requires all four fields', async () => {
      const res = await api().post('/api/v1/feedback').send({ name: 'Fay' }).expect(400);
      expect(res.body.message).toContain(MESSAGES.invalidEmail);
      expect(res.body.message).toContain('Please enter a subject');
      expect(res.body.message).toContain('Please enter a message');
    });
  });

  describe('throttling', () => {
    it('answers 429 after 10 failed logins on one account from one address within the window', async () => {
      const email = uniqueEmail('throttled');
      const attempt = () =>
        request(stack.url)
          .post('/api/v1/auth/login')
          .set('X-Forwarded-For', '203.0.113.7')
          .send({ email, password: 'wrong' });
      for (let i = 0; i < 10; i++) await attempt().expect(401);
      const res = await attempt().expect(429);
      expect(res.body.message).toBe(MESSAGES.tooManyAttempts);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  it('keeps sessionCookie helper honest', () => {
    expect(() => sessionCookie(undefined)).toThrow();
  });
});
