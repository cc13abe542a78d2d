import { BrowserContext, expect, Page, test } from '@playwright/test';
import { axeProblems, guestJoins, loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';

/**
 * Every route at 1280 and 390 px wide, the local checkout and portal pages included: axe-core finds no
 * serious or critical violation, each page has one h1 and no skipped heading level, its document title
 * names it, nothing scrolls sideways, and a screenshot of each lands in e2e/artifacts/route-*.png.
 */
const WIDTHS = [1280, 390] as const;

async function check(page: Page, name: string, title: RegExp) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // Not 'networkidle': a room page holds its event stream open for good.
    await page.waitForLoadState('load');
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForTimeout(300); // antd's entrance animations
    expect(await axeProblems(page), `${name} at ${width} px`).toEqual([]);
    await expect(page).toHaveTitle(title);
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    await shot(page, `route-${name}-${width}`);
  }
}

const PUBLIC: [string, string, RegExp][] = [
  ['/', 'home', /^Decide where to eat, together · ForkVote$/],
  ['/join-session', 'join-session', /^Join a Session · ForkVote$/],
  ['/places', 'places', /^Discover places · ForkVote$/],
  ['/login', 'login', /^Log In · ForkVote$/],
  ['/register', 'register', /^Start Your Free Trial · ForkVote$/],
  ['/forgot-password', 'forgot-password', /^Forgot Password · ForkVote$/],
  ['/reset-password?token=abc', 'reset-password', /^Choose a New Password · ForkVote$/],
  ['/pricing', 'pricing', /^Pricing · ForkVote$/],
  ['/how-it-works', 'how-it-works', /^How It Works · ForkVote$/],
  ['/about', 'about', /^About · ForkVote$/],
  ['/contact', 'contact', /^Contact · ForkVote$/],
  ['/help', 'help', /^Help · ForkVote$/],
  ['/feedback', 'feedback', /^Feedback · ForkVote$/],
  ['/terms', 'terms', /^Terms of Service · ForkVote$/],
  ['/privacy', 'privacy', /^Privacy Policy · ForkVote$/],
  ['/payment/success', 'payment-success', /^Registration Complete · ForkVote$/],
  ['/payment/cancel', 'payment-cancel', /^Payment Unsuccessful · ForkVote$/],
  ['/no-such-page', 'not-found', /^Page Not Found · ForkVote$/],
];

for (const [path, name, title] of PUBLIC) {
  test(`${path}: accessible, titled and whole at both widths`, async ({ page }) => {
    await page.goto(path);
    await check(page, name, title);
  });
}

test('the local checkout page: accessible and whole at both widths', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  try {
    const registered = await context.request.post('/api/v1/auth/register', {
      data: {
        email: uniqueEmail('axe'),
        password: 'secret12',
        name: 'Axe Checker',
        plan: 'yearly',
        acceptTermsOfService: true,
        recaptchaToken: 'dev-recaptcha-token',
      },
    });
    const page = await context.newPage();
    await page.goto((await registered.json()).stripeCheckoutUrl);
    await expect(page.getByRole('img', { name: /ForkVote/ })).toBeVisible();
    await check(page, 'checkout', /ForkVote/);
  } finally {
    await context.close();
  }
});

/** A signed-in host in a room of two (the guest in a second context), through the pages. */
test('profile, create, and a room (waiting, voting, results): accessible, titled and whole', async ({
  browser,
  baseURL,
}) => {
  // Seven pages at two widths, each with a full axe run: under a loaded CI machine, over two minutes.
  test.setTimeout(240_000);
  const host: BrowserContext = await browser.newContext({ baseURL });
  const guest: BrowserContext = await browser.newContext({ baseURL });
  try {
    const page = await host.newPage();
    const email = uniqueEmail('axehost');
    await registerByApi(host, 'Axel Host', email);
    await loginThroughUi(page, email, 'secret12');
    await page.goto('/profile');
    await check(page, 'profile', /^Profile · ForkVote$/);
    const stripe = await (await host.request.get('/api/v1/me/stripe')).json();
    await page.goto(stripe.customerPortalUrl);
    await check(page, 'portal', /ForkVote/);
    await page.goto('/create-session');
    await check(page, 'create-session', /^Create a New Session · ForkVote$/);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Create Session' }).click();
    await expect(page).toHaveURL(/\/waiting-room$/);
    const other = await guestJoins(guest, page, 'Gus');
    await check(page, 'waiting-room-host', /^Waiting Room · ForkVote$/);
    await check(other, 'waiting-room-guest', /^Waiting Room · ForkVote$/);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await page.getByRole('button', { name: 'Start voting' }).click();
    await expect(other).toHaveURL(/\/voting$/, { timeout: 10_000 });
    await check(other, 'voting', /^Time to Vote! · ForkVote$/);
    for (const voter of [page, other]) {
      await expect(voter).toHaveURL(/\/voting$/, { timeout: 10_000 });
      const cards = voter.getByTestId('place-card');
      for (let i = 0; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();
      await voter.getByRole('button', { name: 'Submit Votes' }).click();
    }
    await expect(other).toHaveURL(/\/results$/);
    await check(other, 'results', /^Results · ForkVote$/);
  } finally {
    await host.close();
    await guest.close();
  }
});
