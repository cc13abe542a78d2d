import type { Plan } from '@forkvote/contracts';
import request from 'supertest';
import { EventStreamClient } from './event-stream';
export { startOtlpReceiver, type ReceivedSpan } from './otlp-receiver';

import * as stackModule from './stack';
import type { RunningStack } from './stack';

export type TestStack = RunningStack;
export {
  dropDatabase,
  dropRedisPrefix,
  ensureDatabase,
  freePort,
  startRedisCluster,
  startRedisServer,
} from './stack';

/**
 * Starts all services and the gateway against a fresh database and Redis prefix, and waits for health.
 * `output` receives every line each process prints (prefixed with its name); by default it is dropped.
 * `processEnv` gives one process variables of its own, by name (`{ gateway: { METRICS_PORT: '9999' } }`).
 */
export async function startTestStack(
  env: Record<string, string> = {},
  output?: (line: string) => void,
  processEnv?: Record<string, Record<string, string>>,
): Promise<TestStack> {
  const stack = await stackModule.startTestStack({ env, output, processEnv });
  try {
    await stack.waitHealthy(60_000);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return stack;
}

export { selfSignedCertificate, START_SEARCH } from './fixtures';
export const DEV_RECAPTCHA_TOKEN = 'dev-recaptcha-token';

/**
 * Asks again every 100 ms, for at most 5 s, until `ready` holds for the answer; answers the last one (the
 * caller's expectation then says what was wrong). For what the stack does after it answers: the relay's
 * kept results, a profile saved in the background.
 */
export async function until<T>(get: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i++) {
    const value = await get();
    if (ready(value) || i === 50) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let counter = 0;

/** This process's block of documentation addresses (2001:db8::/32), so no two test processes share one. */
const ADDRESS_BLOCK = Math.floor(Math.random() * 0xffff).toString(16);
let addresses = 0;

/**
 * A client address of its own for each simulated person (a documentation address, only ever a header
 * value): the gateway trusts X-Forwarded-For from loopback, so per-address rate limits treat them as
 * separate people. Never the same twice in a process: addresses drawn at random from a small range did
 * meet, and two hosts of one suite then shared one address's limits.
 */
export function clientAddress(): string {
  addresses += 1;
  // A /64 of its own: the gateway counts an IPv6 client by its /64, all of which one subscriber holds.
  return `2001:db8:${ADDRESS_BLOCK}:${(addresses % 0x10000).toString(16)}::${(addresses >>> 16).toString(16)}`;
}

/** A fresh, valid email for each call. */
export function uniqueEmail(name = 'user'): string {
  counter += 1;
  return `${name}.${Date.now().toString(36)}.${counter}@example.com`;
}

export interface TestUser {
  email: string;
  password: string;
  name: string;
  /** `Cookie` header value of a logged-in session. */
  cookie: string;
}

/** A valid register body: a fresh email, the development bot-check token, terms accepted. */
export function registration(overrides: Partial<Record<string, unknown>> = {}) {
  return {
    email: uniqueEmail('reg'),
    password: 'secret12',
    name: 'Reg Ister',
    plan: 'monthly' as Plan,
    acceptTermsOfService: true,
    recaptchaToken: DEV_RECAPTCHA_TOKEN,
    ...overrides,
  };
}

/** Registers, completes the offline checkout for `plan`, and logs in. */
export async function signUp(baseUrl: string, plan: Plan = 'monthly', name = 'Test User'): Promise<TestUser> {
  const email = uniqueEmail(name.split(' ')[0].toLowerCase());
  const password = 'correct horse';
  const ip = clientAddress();
  const registered = await request(baseUrl)
    .post('/api/v1/auth/register')
    .set('X-Forwarded-For', ip)
    .send({ email, password, name, plan, acceptTermsOfService: true, recaptchaToken: DEV_RECAPTCHA_TOKEN })
    .expect(200);
  await request(baseUrl)
    .post(`${registered.body.stripeCheckoutUrl}/complete`)
    .set('Cookie', checkoutCookie(registered.headers['set-cookie']))
    .expect(303);
  const cookie = await login(baseUrl, email, password, false, ip);
  return { email, password, name, cookie };
}

export async function login(
  baseUrl: string,
  email: string,
  password: string,
  rememberMe = false,
  ip = clientAddress(),
): Promise<string> {
  const res = await request(baseUrl)
    .post('/api/v1/auth/login')
    .set('X-Forwarded-For', ip)
    .send({ email, password, rememberMe })
    .expect(200);
  return sessionCookie(res.headers['set-cookie']);
}

export function sessionCookie(setCookie: string | string[] | undefined): string {
  return cookieNamed('fv_session', setCookie);
}

/** The local checkout's secret cookie, which register and subscribe set: `fv_checkout=…`. */
export function checkoutCookie(setCookie: string | string[] | undefined): string {
  return cookieNamed('fv_checkout', setCookie);
}

export function cookieNamed(name: string, setCookie: string | string[] | undefined): string {
  const cookies = ([] as string[]).concat(setCookie ?? []);
  const found = cookies.find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`No ${name} cookie in ${JSON.stringify(cookies)}`);
  return found.split(';')[0];
}
export * from './event-stream';

/**
 * A browser-like participant: keeps its cookies (session and room) across calls, as a browser would.
 */
export class Participant {
  private readonly cookies = new Map<string, string>();
  readonly ip = clientAddress();

  constructor(
    readonly baseUrl: string,
    sessionCookie?: string,
  ) {
    if (sessionCookie) this.remember(sessionCookie);
  }

  private remember(cookie: string): void {
    const [pair] = cookie.split(';');
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    if (value === '' || /Expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async keep<T extends { headers: Record<string, unknown> }>(res: T): Promise<T> {
    for (const cookie of ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []))
      this.remember(cookie);
    return res;
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.send(request(this.baseUrl).get(path), headers);
  }

  post(path: string, body: object = {}, headers: Record<string, string> = {}) {
    return this.send(request(this.baseUrl).post(path).send(body), headers);
  }

  patch(path: string, body: object = {}, headers: Record<string, string> = {}) {
    return this.send(request(this.baseUrl).patch(path).send(body), headers);
  }

  /**
   * Opens a waiting room as its host (a signed-in participant whose plan allows hosting), and waits until
   * its first event is relayed. Answers its code, the host's id and bearer token, and the header to send it.
   */
  async openRoom(userName: string) {
    const created = await this.post('/api/v1/waiting-room/create', { userId: 'x', userName });
    if (created.status !== 200) throw new Error(`create answered ${created.status}: ${created.text}`);
    const code = created.body.waitingRoom.waitingRoomId as string;
    const hostId = created.body.userId as string;
    await this.untilRelayed(code, hostId, 'USER_JOINED', 1);
    const token = created.body.token as string;
    return { code, hostId, token, hostAuth: { Authorization: `Bearer ${token}` } };
  }

  put(path: string, body: object = {}, headers: Record<string, string> = {}) {
    return this.send(request(this.baseUrl).put(path).send(body), headers);
  }

  delete(path: string, headers: Record<string, string> = {}) {
    return this.send(request(this.baseUrl).delete(path), headers);
  }

  private async send(test: request.Test, headers: Record<string, string>) {
    test.set('X-Forwarded-For', this.ip);
    if (this.cookies.size > 0) test.set('Cookie', this.cookieHeader);
    for (const [k, v] of Object.entries(headers)) test.set(k, v);
    return this.keep(await test);
  }

  /**
   * Waits until the room's log holds `count` events named `event`, read through a stream resumed from the
   * log's start. The outbox relays each change a moment after its answer, and a stream opened without
   * Last-Event-ID hears what is published once it is subscribed: a test that counts or compares what
   * streams hear waits here first, so a change made before they open is not heard by some and not others.
   */
  async untilRelayed(waitingRoomId: string, userId: string, event: string, count: number): Promise<void> {
    const probe = await this.events(waitingRoomId, userId, '0-0');
    try {
      await probe.waitFor(event, count);
    } finally {
      probe.close();
    }
  }

  /** Opens the room's event stream with this participant's cookies. */
  events(waitingRoomId: string, userId: string, lastEventId?: string) {
    const url = `${this.baseUrl}/api/v1/waiting-room/events/${waitingRoomId}?userId=${encodeURIComponent(userId)}&userName=x`;
    return EventStreamClient.open(url, {
      Cookie: this.cookieHeader,
      ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}),
    });
  }
}

/**
 * A process's counter or gauge, read from its Prometheus page (the gateway's METRICS_PORT, a service's
 * HEALTH_PORT): the sum of its series, of those whose labels contain `label` if given.
 */
export async function metricSum(port: number, name: string, label = ''): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  // `name value` or `name{labels} value`
  return text
    .split('\n')
    .filter((l) => (l.startsWith(`${name} `) || l.startsWith(`${name}{`)) && l.includes(label))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}
