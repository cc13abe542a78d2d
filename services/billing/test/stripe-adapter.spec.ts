import { MESSAGES } from '@forkvote/contracts';
import { clientAddress, freePort, login, startTestStack, TestStack, uniqueEmail } from '@forkvote/testing';
import { createServer, IncomingMessage, Server } from 'node:http';
import Stripe from 'stripe';
import request from 'supertest';

/**
 * Billing against local servers that speak Stripe's and reCAPTCHA's wire formats: the real Stripe SDK
 * (pointed at 127.0.0.1) and the real siteverify adapter; webhooks signed with the SDK's test helper.
 */
const WEBHOOK_SECRET = 'whsec_test_forkvote';

interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey?: string;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

/** Answers like api.stripe.com for the three calls billing makes, and records them. */
function fakeStripe(recorded: Recorded[], behaviour: { failCheckout: boolean }): Server {
  return createServer(async (req, res) => {
    const form = new URLSearchParams(await readBody(req));
    recorded.push({
      method: req.method!,
      path: req.url!,
      form,
      idempotencyKey: req.headers['idempotency-key'] as string,
    });
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${recorded.length}` });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== 'Bearer sk_test_fake') {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (req.method === 'POST' && req.url === '/v1/customers') {
      return send(200, {
        id: `cus_fake_${recorded.length}`,
        object: 'customer',
        email: form.get('email'),
        created: 1_700_000_000,
      });
    }
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      if (behaviour.failCheckout) {
        return send(400, {
          error: { type: 'invalid_request_error', message: 'No such price', code: 'resource_missing' },
        });
      }
      const id = `cs_test_${recorded.length}`;
      return send(200, {
        id,
        object: 'checkout.session',
        mode: form.get('mode'),
        url: `https://checkout.stripe.test/c/pay/${id}`,
      });
    }
    if (req.method === 'POST' && req.url === '/v1/billing_portal/sessions') {
      return send(200, {
        id: 'bps_1',
        object: 'billing_portal.session',
        url: 'https://billing.stripe.test/p/session/test_1',
      });
    }
    send(404, {
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${req.method}: ${req.url})`,
      },
    });
  });
}

/** Answers like reCAPTCHA's siteverify: the token names the outcome. */
function fakeSiteverify(secrets: string[]): Server {
  return createServer(async (req, res) => {
    const form = new URLSearchParams(await readBody(req));
    secrets.push(form.get('secret') ?? '');
    const token = form.get('response');
    const answer =
      token === 'human'
        ? {
            success: true,
            score: 0.9,
            action: 'register',
            hostname: 'localhost',
            challenge_ts: new Date().toISOString(),
          }
        : token === 'bot'
          ? { success: true, score: 0.1, action: 'register' }
          : token === 'other-action'
            ? { success: true, score: 0.9, action: 'login' }
            : { success: false, 'error-codes': ['invalid-input-response'] };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
}

const listen = (server: Server, port: number) =>
  new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

describe('billing with Stripe and the reCAPTCHA adapter', () => {
  let stack: TestStack;
  const stripeCalls: Recorded[] = [];
  const recaptchaSecrets: string[] = [];
  const behaviour = { failCheckout: false };
  let stripeServer: Server;
  let recaptchaServer: Server;
  const signer = new Stripe('sk_test_signer_only');

  beforeAll(async () => {
    const [stripePort, recaptchaPort] = [await freePort(), await freePort()];
    stripeServer = fakeStripe(stripeCalls, behaviour);
    recaptchaServer = fakeSiteverify(recaptchaSecrets);
    await Promise.all([listen(stripeServer, stripePort), listen(recaptchaServer, recaptchaPort)]);
    stack = await startTestStack({
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(stripePort),
      STRIPE_API_PROTOCOL: 'http',
      RECAPTCHA_SECRET: 'recaptcha-test-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${recaptchaPort}/siteverify`,
      PUBLIC_URL: 'https://forkvote.test',
    });
  });

  afterAll(async () => {
    await stack?.stop();
    stripeServer?.close();
    recaptchaServer?.close();
  });

  const register = (body: Record<string, unknown>) =>
    request(stack.url)
      .post('/api/v1/auth/register')
      .set('X-Forwarded-For', clientAddress())
      .send({
        password: 'secret12',
        name: 'Stripe User',
        plan: 'monthly',
        acceptTermsOfService: true,
        recaptchaToken: 'human',
        ...body,
      });

  async function registeredUser(plan: string) {
    const email = uniqueEmail('stripe');
    const res = await register({ email, plan }).expect(200);
    const cookie = await login(stack.url, email, 'secret12');
    const payload = await request(stack.url)
      .post('/api/v1/auth/verify-token')
      .set('Cookie', cookie)
      .expect(200);
    return {
      email,
      cookie,
      userId: payload.body.userId as string,
      checkoutUrl: res.body.stripeCheckoutUrl as string,
    };
  }

  function webhook(event: object, secret = WEBHOOK_SECRET) {
    const payload = JSON.stringify(event);
    return request(stack.url)
      .post('/api/v1/billing/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', signer.webhooks.generateTestHeaderString({ payload, secret }))
      .send(payload);
  }

  const subscriptionEvent = (
    id: string,
    type: string,
    created: number,
    subscription: Record<string, unknown>,
  ) => ({
    id,
    object: 'event',
    type,
    created,
    api_version: '2025-01-01',
    data: { object: subscription },
  });

  const subscription = (userId: string, status: string, extra: Record<string, unknown> = {}) => ({
    id: `sub_${userId.slice(0, 8)}`,
    object: 'subscription',
    customer: 'cus_fake',
    status,
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    trial_start: 1_700_000_000,
    trial_end: 1_700_604_800,
    created: 1_700_000_000,
    metadata: { userId, plan: 'monthly' },
    items: {
      data: [
        {
          created: 1_700_000_000,
          current_period_end: 1_700_604_800,
          plan: { interval: 'month', amount: 199 },
        },
      ],
    },
    ...extra,
  });

  it('opens a Stripe Checkout subscription with a 7-day trial and answers its url', async () => {
    const { checkoutUrl, userId, email } = await registeredUser('yearly');
    expect(checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const customer = stripeCalls.find((c) => c.path === '/v1/customers' && c.form.get('email') === email)!;
    expect(customer.form.get('metadata[userId]')).toBe(userId);
    const checkout = stripeCalls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
    expect(Object.fromEntries(checkout.form)).toMatchObject({
      mode: 'subscription',
      client_reference_id: userId,
      'subscription_data[trial_period_days]': '7',
      'subscription_data[metadata][userId]': userId,
      'line_items[0][price_data][unit_amount]': '1999',
      'line_items[0][price_data][recurring][interval]': 'year',
      'line_items[0][price_data][currency]': 'usd',
      success_url: 'https://forkvote.test/payment/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://forkvote.test/payment/cancel',
    });
    expect(checkout.idempotencyKey).toMatch(/^checkout-/);
  });

  it('opens a one-time payment for lifetime, and the completed webhook grants lifetime access', async () => {
    const { userId, cookie } = await registeredUser('lifetime');
    const checkout = stripeCalls.filter((c) => c.path === '/v1/checkout/sessions').at(-1)!;
    expect(checkout.form.get('mode')).toBe('payment');
    expect(checkout.form.get('line_items[0][price_data][unit_amount]')).toBe('4999');
    expect(checkout.form.has('subscription_data[trial_period_days]')).toBe(false);

    const completed = {
      id: `evt_lifetime_${userId}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: 1_700_000_100,
      data: {
        object: {
          id: 'cs_test_lifetime',
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          client_reference_id: userId,
          customer: 'cus_fake_lifetime',
          metadata: { userId, plan: 'lifetime' },
        },
      },
    };
    const res = await webhook(completed).expect(200);
    expect(res.body).toEqual({ received: true, result: 'applied' });
    const me = await request(stack.url).get('/api/v1/me').set('Cookie', cookie).expect(200);
    expect(me.body).toMatchObject({
      hasLifetimeAccess: true,
      lifetimeAccessPurchasedAt: new Date(1_700_000_100_000).toISOString(),
    });
  });

  it('applies a subscription webhook once even when Stripe retries it', async () => {
    const { userId, cookie } = await registeredUser('monthly');
    const event = subscriptionEvent(
      `evt_created_${userId}`,
      'customer.subscription.created',
      1_700_000_000,
      subscription(userId, 'trialing'),
    );
    expect((await webhook(event).expect(200)).body.result).toBe('applied');
    expect((await webhook(event).expect(200)).body.result).toBe('duplicate');

    const payload = await request(stack.url)
      .post('/api/v1/auth/verify-token')
      .set('Cookie', cookie)
      .expect(200);
    expect(payload.body).toMatchObject({ canCreateRooms: true, subscriptionStatus: 'trialing' });
    const billing = await request(stack.url).get('/api/v1/me/stripe').set('Cookie', cookie).expect(200);
    expect(billing.body.customerPortalUrl).toBe('https://billing.stripe.test/p/session/test_1');
    expect(billing.body.stripeSubscriptions).toHaveLength(1);
    const portal = stripeCalls.filter((c) => c.path === '/v1/billing_portal/sessions').at(-1)!;
    expect(portal.form.get('return_url')).toBe('https://forkvote.test/profile');
  });

  it('keeps the newest state when events arrive out of order', async () => {
    const { userId, cookie } = await registeredUser('monthly');
    const newer = subscriptionEvent(
      `evt_new_${userId}`,
      'customer.subscription.updated',
      1_700_000_500,
      subscription(userId, 'active'),
    );
    const older = subscriptionEvent(
      `evt_old_${userId}`,
      'customer.subscription.updated',
      1_700_000_200,
      subscription(userId, 'canceled', { canceled_at: 1_700_000_200 }),
    );
    expect((await webhook(newer).expect(200)).body.result).toBe('applied');
    expect((await webhook(older).expect(200)).body.result).toBe('ignored');
    const payload = await request(stack.url)
      .post('/api/v1/auth/verify-token')
      .set('Cookie', cookie)
      .expect(200);
    expect(payload.body).toMatchObject({ canCreateRooms: true, subscriptionStatus: 'active' });

    const deleted = subscriptionEvent(
      `evt_deleted_${userId}`,
      'customer.subscription.deleted',
      1_700_000_900,
      subscription(userId, 'canceled', { canceled_at: 1_700_000_900 }),
    );
    await webhook(deleted).expect(200);
    const after = await request(stack.url)
      .post('/api/v1/auth/verify-token')
      .set('Cookie', cookie)
      .expect(200);
    expect(after.body).toMatchObject({ canCreateRooms: false, subscriptionStatus: 'canceled' });
  });

  it('refuses a webhook with a bad signature or none', async () => {
    const bad = await webhook(
      { id: 'evt_forged', type: 'customer.subscription.created', created: 1, data: { object: {} } },
      'whsec_wrong',
    ).expect(400);
    expect(bad.body.message).toBe('Invalid webhook signature');
    await request(stack.url).post('/api/v1/billing/webhook').send({ id: 'evt_unsigned' }).expect(400);
  });

  it('rolls the registration back when Stripe refuses the checkout, so the email can try again', async () => {
    const email = uniqueEmail('rollback');
    behaviour.failCheckout = true;
    try {
      const res = await register({ email }).expect(503);
      expect(res.body.message).toBe(MESSAGES.registrationFailed);
    } finally {
      behaviour.failCheckout = false;
    }
    await request(stack.url).post('/api/v1/auth/login').send({ email, password: 'secret12' }).expect(401);
    await register({ email }).expect(200);
  });

  it('registers only with a token siteverify accepts for the register action and score', async () => {
    await register({ email: uniqueEmail('human'), recaptchaToken: 'human' }).expect(200);
    for (const token of ['bot', 'other-action', 'garbage']) {
      const res = await register({ email: uniqueEmail('bot'), recaptchaToken: token }).expect(403);
      expect(res.body.message).toBe(MESSAGES.recaptchaFailed);
    }
    expect(new Set(recaptchaSecrets)).toEqual(new Set(['recaptcha-test-secret']));
  });
});
