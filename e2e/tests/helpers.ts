import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, expect, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ARTIFACTS = join(__dirname, '..', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

/**
 * A full-page screenshot into e2e/artifacts, for a person to look at. Not under CI (nobody looks there, and
 * encoding some forty full-page PNGs is a real share of the suite's time) unless E2E_SHOTS=1; a screenshot
 * asserts nothing, so no check is lost. `fullPage: false` for a touch page: Chromium's full-page capture
 * drops touch emulation while it runs, so a page that follows `(pointer: coarse)` would draw its mouse look.
 */
export async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  if (process.env.CI && process.env.E2E_SHOTS !== '1') return;
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

let counter = 0;
export function uniqueEmail(name: string): string {
  counter += 1;
  return `${name}.${Date.now().toString(36)}.${counter}@example.com`;
}

/** Registers through the UI, completes the offline checkout and lands on the success page. */
export async function registerThroughUi(
  page: Page,
  options: { name: string; email: string; password: string; plan?: string },
) {
  await page.goto(`/register${options.plan ? `?plan=${options.plan}` : ''}`);
  await page.getByLabel('Full name').fill(options.name);
  await page.getByLabel('Email').fill(options.email);
  await page.getByLabel('Password').fill(options.password);
  await page.getByRole('checkbox', { name: /I am at least 18/ }).check();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('TEST MODE')).toBeVisible();
  await page.getByRole('button', { name: /Start free trial|Pay \$/ }).click();
  await expect(page.getByText('Registration Complete')).toBeVisible();
}

export async function loginThroughUi(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByTestId('header-user-name')).toBeVisible();
}

let addresses = 0;
/**
 * A client address of its own for each registration (the gateway trusts X-Forwarded-For from loopback): the
 * suite registers more accounts than one address may in an hour (20), as many people would.
 */
function ownAddress(): string {
  addresses += 1;
  return `2001:db8:${process.pid.toString(16)}:${addresses.toString(16)}::1`;
}

/** Registers through the API in `context` (its cookies, so its checkout cookie too) and completes the checkout. */
export async function registerByApi(
  context: BrowserContext,
  name: string,
  email: string,
  password = 'secret12',
) {
  const registered = await context.request.post('/api/v1/auth/register', {
    headers: { 'X-Forwarded-For': ownAddress() },
    data: {
      email,
      password,
      name,
      plan: 'monthly',
      acceptTermsOfService: true,
      recaptchaToken: 'dev-recaptcha-token',
    },
  });
  const { stripeCheckoutUrl } = await registered.json();
  await context.request.post(`${stripeCheckoutUrl}/complete`, { maxRedirects: 0 });
}

/** A registered, subscribed and signed-in user in a context of their own, at 1280 wide. */
export async function signedIn(browser: Browser, baseURL: string, name: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const email = uniqueEmail(name.toLowerCase());
  await registerByApi(context, name, email);
  const login = await context.request.post('/api/v1/auth/login', {
    data: { email, password: 'secret12', rememberMe: false },
  });
  expect(login.status()).toBe(200);
  return { context, page: await context.newPage() };
}

/**
 * The host creates a session, the member joins it by its link, the host starts voting near 10001; answers
 * the room's code once both are on the voting page.
 */
export async function votingTogether(host: Page, member: Page): Promise<string> {
  await host.goto('/create-session');
  await host.getByRole('button', { name: 'Create Session' }).click();
  const code = (await host.getByTestId('room-code').textContent())!.trim();
  await member.goto(`/join-session?waitingRoomId=${code}`);
  await member.getByRole('button', { name: 'Join Session' }).click();
  await expect(host.getByText('People in the session (2)')).toBeVisible();
  await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
  await host.getByRole('button', { name: 'Start voting' }).click();
  await expect(member).toHaveURL(/\/voting$/, { timeout: 15_000 });
  return code;
}

/** Votes on the batch's five cards: yes to the one at `yes`, no to the rest, and submits. */
export async function voteYesTo(page: Page, yes: number) {
  const cards = page.getByTestId('place-card');
  await expect(cards).toHaveCount(5);
  for (let i = 0; i < 5; i++)
    await cards
      .nth(i)
      .getByText(i === yes ? 'Yes' : 'No', { exact: true })
      .click();
  await page.getByRole('button', { name: 'Submit Votes' }).click();
}

/** A guest in `context` joins, by the invite link, the room `hostPage` shows; waits until the host sees them. */
export async function guestJoins(context: BrowserContext, hostPage: Page, name: string, people = 2) {
  const code = (await hostPage.getByTestId('room-code').textContent())!.trim();
  const guest = await context.newPage();
  await guest.goto(`/join-session?waitingRoomId=${code}`);
  await guest.getByLabel('Your Name').fill(name);
  await guest.getByRole('button', { name: 'Join Session' }).click();
  await expect(hostPage.getByText(`People in the session (${people})`)).toBeVisible();
  return guest;
}

/** What axe-core finds serious or critical on the page, and a missing h1 or a skipped heading level. */
export async function axeProblems(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter(
      (v) =>
        v.impact === 'serious' ||
        v.impact === 'critical' ||
        v.id === 'page-has-heading-one' ||
        v.id === 'heading-order',
    )
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
