import { PUBLIC_ROUTES } from '@forkvote/testing/src/fixtures';
import { Browser, expect, test } from '@playwright/test';
import { guestJoins, loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';
import { Relay } from './relay';
import { smallTargets } from './tap-targets';

/** What a person on a phone meets: the findings of the phone review, each driven as they would. */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

/**
 * A host at a desk with an open room, and a context for a guest on the phone (this file's settings apply to
 * new contexts too, so the host's are given).
 */
async function deskHostWithRoom(browser: Browser, baseURL: string, name: string) {
  const hostContext = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 720 },
    isMobile: false,
    hasTouch: false,
  });
  const guestContext = await browser.newContext({ baseURL });
  const host = await hostContext.newPage();
  const email = uniqueEmail('desk-host');
  await registerByApi(hostContext, name, email);
  await loginThroughUi(host, email, 'secret12');
  await host.goto('/create-session');
  await host.getByRole('button', { name: 'Create Session' }).click();
  await expect(host).toHaveURL(/\/waiting-room$/);
  return { hostContext, guestContext, host };
}

/** The same, with the guest's phone reaching the stack only through a relay the test can cut. */
async function deskHostAndGuestBehindRelay(browser: Browser, baseURL: string, name: string) {
  const { hostContext, guestContext: direct, host } = await deskHostWithRoom(browser, baseURL, name);
  await direct.close();
  const relay = await Relay.open(baseURL);
  const guestContext = await browser.newContext({ baseURL: relay.url });
  return { hostContext, guestContext, host, relay };
}

test('a page opens at its top, and Back returns to where the last one was left', async ({ page }) => {
  await page.goto('/pricing');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
  await expect.poll(() => page.evaluate<number>('window.scrollY')).toBeGreaterThan(200);
  const left = await page.evaluate<number>('window.scrollY');

  await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate<number>('window.scrollY')).toBe(0);
  await shot(page, 'phone-about-opens-at-top-390');

  await page.goBack();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect.poll(() => page.evaluate<number>('window.scrollY')).toBeGreaterThan(left - 50);
});

test('robots.txt is a real robots file, and the app links its manifest', async ({ page, request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  expect(await robots.text()).toContain('Disallow: /api/');
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await request.get(href!);
  expect(manifest.status()).toBe(200);
  expect(await manifest.json()).toMatchObject({ name: 'ForkVote', start_url: '/', display: 'standalone' });
});

test('a leave that fails keeps the guest in the room and says why, where they are (§8)', async ({
  browser,
  baseURL,
}) => {
  const { hostContext, guestContext, host } = await deskHostWithRoom(browser, baseURL!, 'Lea Host');
  try {
    const guest = await guestJoins(guestContext, host, 'Gus');
    await expect(guest).toHaveURL(/\/waiting-room$/);

    // The server refuses with its own message: that message, on the page the guest is on.
    await guest.route('**/api/v1/waiting-room/leave', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, message: 'Something went wrong on our side.' }),
      }),
    );
    await guest.getByRole('button', { name: 'Leave Waiting Room' }).click();
    const alert = guest.getByRole('alert').filter({ hasText: 'Something went wrong on our side.' });
    await expect(alert).toBeVisible();
    await expect(alert).toBeInViewport();
    await expect(guest).toHaveURL(/\/waiting-room$/);
    await shot(guest, 'phone-leave-failed-390');

    // An answer without a message: the SPEC's own words.
    await guest.unroute('**/api/v1/waiting-room/leave');
    await guest.route('**/api/v1/waiting-room/leave', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad Gateway</h1>' }),
    );
    await guest.getByRole('button', { name: 'Leave Waiting Room' }).click();
    await expect(
      guest.getByRole('alert').filter({ hasText: 'Failed to leave waiting room' }),
    ).toBeInViewport();
    await expect(guest).toHaveURL(/\/waiting-room$/);
    await expect(host.getByText('People in the session (2)')).toBeVisible();

    // And once the network is back, leaving works and lands at the top of the home page.
    await guest.unroute('**/api/v1/waiting-room/leave');
    await guest.getByRole('button', { name: 'Leave Waiting Room' }).click();
    await expect(guest).toHaveURL(/\/$/);
    await expect.poll(() => guest.evaluate<number>('window.scrollY')).toBe(0);
    await expect(host.getByText('People in the session (1)')).toBeVisible();
  } finally {
    await hostContext.close();
    await guestContext.close();
  }
});

test('two tabs of one guest agree: a ballot sent in one is cast in the other', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { hostContext, guestContext, host } = await deskHostWithRoom(browser, baseURL!, 'Tab Host');
  try {
    const first = await guestJoins(guestContext, host, 'Tia');
    // The same person opens a second tab: the room cookie brings them back into the same room.
    const second = await guestContext.newPage();
    await second.goto('/waiting-room');
    await expect(second.getByText('People in the session (2)')).toBeVisible();

    await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.getByRole('button', { name: 'Start voting' }).click();
    for (const tab of [first, second]) {
      await expect(tab).toHaveURL(/\/voting$/, { timeout: 15_000 });
      await expect(tab.getByTestId('place-card')).toHaveCount(5);
    }
    const cards = first.getByTestId('place-card');
    for (let i = 0; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();
    await first.getByRole('button', { name: 'Submit Votes' }).click();
    await expect(
      first.getByText('Votes submitted successfully! Waiting for others to submit their votes.'),
    ).toBeVisible();
    // The other tab shows the ballot as cast, and offers nothing to send a second time.
    await expect(
      second.getByText('Votes submitted successfully! Waiting for others to submit their votes.'),
    ).toBeVisible();
    await expect(second.getByRole('button', { name: 'Submit Votes' })).toHaveCount(0);
    await shot(second, 'phone-second-tab-voted-390');
  } finally {
    await hostContext.close();
    await guestContext.close();
  }
});

test('a network drop loses nothing: a start heard late, choices kept over a reload, a ballot sent when back', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const { hostContext, guestContext, host, relay } = await deskHostAndGuestBehindRelay(
    browser,
    baseURL!,
    'Net Host',
  );
  try {
    const guest = await guestJoins(guestContext, host, 'Nia');
    await expect(guest).toHaveURL(/\/waiting-room$/);
    await expect(guest.getByTestId('connection-status')).toHaveText('Connected to Waiting Room events');
    // Remembers whether the "Get Ready to Vote!" overlay ever shows on the guest's page.
    await guest.evaluate(`new MutationObserver(() => {
      if (document.querySelector('.fv-overlay')) window.sawOverlay = true;
    }).observe(document.body, { childList: true, subtree: true })`);

    // The host starts while the guest's network is down; it comes back after the overlay's 3 seconds.
    relay.cutOff();
    await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.getByRole('button', { name: 'Start voting' }).click();
    await expect(host).toHaveURL(/\/voting$/, { timeout: 15_000 });
    await expect(guest.getByTestId('connection-status')).not.toHaveText('Connected to Waiting Room events');
    await guest.waitForTimeout(4000);
    relay.restore();
    await expect(guest).toHaveURL(/\/voting$/, { timeout: 30_000 });
    await expect(guest.getByTestId('place-card')).toHaveCount(5);
    expect(await guest.evaluate('window.sawOverlay === true')).toBe(false);

    // Two of five chosen, then a reload: both are still chosen.
    const cards = guest.getByTestId('place-card');
    await cards.nth(0).getByText('Yes', { exact: true }).click();
    await cards.nth(1).getByText('No', { exact: true }).click();
    await expect(guest.getByTestId('chosen-count')).toHaveText('2 of 5 chosen');
    await guest.reload();
    await expect(guest.getByTestId('place-card')).toHaveCount(5);
    await expect(guest.getByTestId('chosen-count')).toHaveText('2 of 5 chosen');
    await expect(cards.nth(0).getByRole('radio', { name: 'Yes' })).toBeChecked();
    await expect(cards.nth(1).getByRole('radio', { name: 'No' })).toBeChecked();
    for (let i = 2; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();

    // Submitted with the network down: kept and shown as sending, then sent once it is back.
    relay.cutOff();
    await guest.getByRole('button', { name: 'Submit Votes' }).click();
    await expect(guest.getByRole('button', { name: 'Sending…' })).toBeVisible();
    await expect(guest.getByTestId('ballot-sending')).toBeVisible();
    await shot(guest, 'phone-ballot-sending-390');
    await guest.waitForTimeout(3000);
    await expect(guest.getByRole('button', { name: 'Sending…' })).toBeVisible();
    relay.restore();
    await expect(
      guest.getByText('Votes submitted successfully! Waiting for others to submit their votes.'),
    ).toBeVisible({ timeout: 30_000 });

    // The host votes: one ballot each, so the batch closes with two voters.
    const hostCards = host.getByTestId('place-card');
    for (let i = 0; i < 5; i++) await hostCards.nth(i).getByText('Yes', { exact: true }).click();
    await host.getByRole('button', { name: 'Submit Votes' }).click();
    await expect(guest).toHaveURL(/\/results$/, { timeout: 15_000 });
    await expect(host).toHaveURL(/\/results$/, { timeout: 15_000 });
    // The guest chose No for the second place: it is not among the places everyone approved.
    await shot(guest, 'phone-results-after-drop-390');
  } finally {
    await hostContext.close();
    await guestContext.close();
    await relay.close();
  }
});

test('a ballot kept unsent over a reload is sent by the reloaded page, once', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { hostContext, guestContext, host, relay } = await deskHostAndGuestBehindRelay(
    browser,
    baseURL!,
    'Re Host',
  );
  try {
    const guest = await guestJoins(guestContext, host, 'Rio');
    await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.getByRole('button', { name: 'Start voting' }).click();
    await expect(guest).toHaveURL(/\/voting$/, { timeout: 15_000 });
    const cards = guest.getByTestId('place-card');
    for (let i = 0; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();
    relay.cutOff();
    await guest.getByRole('button', { name: 'Submit Votes' }).click();
    await expect(guest.getByRole('button', { name: 'Sending…' })).toBeVisible();
    relay.restore();
    await guest.reload();
    await expect(
      guest.getByText('Votes submitted successfully! Waiting for others to submit their votes.'),
    ).toBeVisible({ timeout: 30_000 });
    // The host's progress list counts the guest as voted, once.
    const hostCards = host.getByTestId('place-card');
    for (let i = 0; i < 5; i++) await hostCards.nth(i).getByText('No', { exact: true }).click();
    await host.getByRole('button', { name: 'Submit Votes' }).click();
    await expect(host).toHaveURL(/\/results$/, { timeout: 15_000 });
  } finally {
    await hostContext.close();
    await guestContext.close();
    await relay.close();
  }
});

test('leaving in one tab leaves in every tab of the same person', async ({ browser, baseURL }) => {
  const { hostContext, guestContext, host } = await deskHostWithRoom(browser, baseURL!, 'Two Host');
  try {
    const first = await guestJoins(guestContext, host, 'Lou');
    const second = await guestContext.newPage();
    await second.goto('/waiting-room');
    await expect(second.getByText('People in the session (2)')).toBeVisible();
    await expect(second.getByTestId('connection-status')).toHaveText('Connected to Waiting Room events');
    await first.getByRole('button', { name: 'Leave Waiting Room' }).click();
    await expect(first).toHaveURL(/\/$/);
    await expect(second).toHaveURL(/\/$/);
    await expect(second.getByText('Session closed')).toHaveCount(0);
    await expect(host.getByText('People in the session (1)')).toBeVisible();
  } finally {
    await hostContext.close();
    await guestContext.close();
  }
});

test('an anonymous visitor’s pages make no call that fails and log no error', async ({ page }) => {
  const failed: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') failed.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  const routes = [
    '/',
    '/join-session',
    '/pricing',
    '/login',
    '/register',
    '/how-it-works',
    '/places',
    '/about',
  ];
  for (const route of routes) {
    await page.goto(route);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('header-user-name')).toHaveCount(0);
  }
  expect(failed).toEqual([]);
});

test('every control on every public page is a touch target: 44 px on a phone, 24 px on a desktop', async ({
  page,
  browser,
  baseURL,
}) => {
  // Seventeen pages, each loaded twice: about a minute on this machine, so more than the default.
  test.setTimeout(150_000);
  const desk = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 }, isMobile: false });
  const deskPage = await desk.newPage();
  const small: string[] = [];
  try {
    for (const route of PUBLIC_ROUTES) {
      for (const p of [page, deskPage]) {
        await p.goto(route);
        await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
        small.push(...(await smallTargets(p)));
      }
    }
  } finally {
    await desk.close();
  }
  expect(small).toEqual([]);
});

test('every control in a room, and on the profile, is a touch target on the phone and on the desk', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { hostContext, guestContext, host } = await deskHostWithRoom(browser, baseURL!, 'Tap Host');
  const small: string[] = [];
  try {
    const guest = await guestJoins(guestContext, host, 'Tap Guest');
    small.push(...(await smallTargets(guest)), ...(await smallTargets(host)));
    await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.getByRole('button', { name: 'Start voting' }).click();
    for (const p of [guest, host]) {
      await expect(p).toHaveURL(/\/voting$/, { timeout: 15_000 });
      await expect(p.getByTestId('place-card')).toHaveCount(5);
      small.push(...(await smallTargets(p)));
      await shot(p, p === guest ? 'phone-voting-390' : 'desk-voting-1280');
      const cards = p.getByTestId('place-card');
      for (let i = 0; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();
      await p.getByRole('button', { name: 'Submit Votes' }).click();
    }
    for (const p of [guest, host]) {
      await expect(p).toHaveURL(/\/results$/, { timeout: 15_000 });
      await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
      small.push(...(await smallTargets(p)));
    }
    await host.goto('/profile');
    await expect(host.getByRole('heading', { level: 1 })).toBeVisible();
    small.push(...(await smallTargets(host)));
    // The same person's profile on a phone.
    const phone = await hostContext.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/profile');
    await expect(phone.getByRole('heading', { level: 1 })).toBeVisible();
    small.push(...(await smallTargets(phone)));
    // Every tab in sight, none behind an overflow menu: the SPEC's three share the first row.
    const boxes = await phone.getByRole('tab').evaluateAll((tabs) =>
      tabs.map((tab) => {
        const box = tab.getBoundingClientRect();
        return { top: Math.round(box.top), left: box.left, right: box.right };
      }),
    );
    expect(boxes).toHaveLength(5);
    expect(new Set(boxes.slice(0, 3).map((b) => b.top)).size).toBe(1);
    for (const box of boxes) expect(box.left >= 0 && box.right <= 390).toBe(true);
    await shot(phone, 'phone-profile-390');
  } finally {
    await hostContext.close();
    await guestContext.close();
  }
  expect(small).toEqual([]);
});
