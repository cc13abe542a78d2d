import AxeBuilder from '@axe-core/playwright';
import { BrowserContext, expect, Page, test } from '@playwright/test';
import { guestJoins, loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';

/**
 * Discovery (/places), the open-now and price filters, a host handing discovery's settings to a new
 * session, the host's nudge, keyboard voting with its announcements, and "Closest to unanimous".
 * The stack serves the demo catalogue, whose places have ratings, prices, hours and photos.
 */

async function noSeriousViolations(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, what).toEqual([]);
}

/** Presses Show places and waits for that search's answer (the previous cards stay until it comes). */
async function showPlaces(page: Page) {
  const answered = page.waitForResponse((r) => r.url().includes('/api/v1/places/nearby'));
  await page.getByRole('button', { name: 'Show places' }).click();
  expect((await answered).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Show places' })).not.toHaveAttribute('aria-busy', 'true');
}

test('discovery: search, cards with facts and distance, load more, open now and price filters', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByRole('link', { name: 'Discover', exact: true }).click();
  await expect(page).toHaveURL(/\/places$/);
  await expect(page).toHaveTitle(/^Discover places · ForkVote$/);

  await page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
  await showPlaces(page);
  const cards = page.getByTestId('discovered-place');
  await expect(cards).toHaveCount(10);
  await expect(page.getByRole('heading', { name: '10 places' })).toBeVisible();
  const first = cards.first();
  await expect(first.getByText(/\d\.\d mi away/)).toBeVisible();
  await expect(first.getByText(/Open now|Closed now/)).toBeVisible();
  await expect(first.getByLabel(/^Rated \d\.\d of 5 from [\d,]+ ratings$/)).toBeVisible();
  // The photo comes through our gateway and loads.
  const photo = first.locator('img');
  await expect(photo).toHaveAttribute('src', /^\/api\/v1\/places\/photo\?ref=demo%2F/);
  await expect
    .poll(() => photo.evaluate((img) => (img as { naturalWidth: number }).naturalWidth))
    .toBeGreaterThan(0);

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(cards).toHaveCount(20);
  const ids = await cards.locator('h3').allTextContents();
  expect(ids.length).toBe(20);
  await noSeriousViolations(page, 'discovery results at 1280');
  await shot(page, 'discovery-1280');

  // Distances in km when the unit is km.
  await page.getByRole('combobox', { name: 'Radius unit' }).click();
  await page.getByTitle('km').click();
  await showPlaces(page);
  await expect(cards.first().getByText(/\d\.\d km away/)).toBeVisible();

  // $ only: no card shows a dearer price (places of unknown price may stay).
  await page.getByRole('checkbox', { name: '$', exact: true }).check();
  await showPlaces(page);
  await expect(cards.first()).toBeVisible();
  for (const label of await cards.getByLabel(/^Price: /).allTextContents()) expect(label).toBe('$');

  // Open now: every place shown is open at this moment (the demo's hours are read in New York time).
  await page.getByRole('switch', { name: 'Open now only' }).click();
  await showPlaces(page);
  await expect(page.getByRole('heading', { name: /^\d+ places$/ })).toBeVisible();
  const shown = await cards.count();
  if (shown === 0) {
    await expect(page.getByText('No places were found there.', { exact: false })).toBeVisible();
  } else {
    await expect(cards.getByText('Open now')).toHaveCount(shown);
    await expect(cards.getByText('Closed now')).toHaveCount(0);
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
  expect(overflow).toBeLessThanOrEqual(0);
  await noSeriousViolations(page, 'discovery results at 390');
  await shot(page, 'discovery-390');
});

test('a host starts a session with discovery’s settings', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const email = uniqueEmail('discoverer');
    await registerByApi(context, 'Dora Host', email);
    await loginThroughUi(page, email, 'secret12');
    await page.goto('/places');
    await page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await page.getByRole('spinbutton', { name: 'Search radius' }).fill('3');
    await page.getByRole('combobox', { name: 'Sort By' }).click();
    await page.getByTitle('Distance').click();
    await page.getByRole('checkbox', { name: '$$', exact: true }).check();
    await page.getByRole('button', { name: 'Start a session with these settings' }).click();
    await expect(page).toHaveURL(/\/create-session$/);
    await page.getByRole('button', { name: 'Create Session' }).click();
    await expect(page).toHaveURL(/\/waiting-room$/);
    // The waiting room holds what discovery was set to.
    await expect(page.getByRole('textbox', { name: 'Zip code' })).toHaveValue('10001');
    await expect(page.getByRole('spinbutton', { name: 'Search radius' })).toHaveValue('3');
    await expect(page.locator('.fv-sort')).toContainText('Distance');
    await expect(page.getByRole('checkbox', { name: '$$', exact: true })).toBeChecked();
    // A reload does not bring the handed-off settings back: they were for this one session.
    expect(await page.evaluate("sessionStorage.getItem('forkvote.searchSettings')")).toBeNull();
  } finally {
    await context.close();
  }
});

test('nudge, keyboard voting with announcements, and closest to unanimous', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const host: BrowserContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const guest: BrowserContext = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  try {
    const page = await host.newPage();
    const email = uniqueEmail('nudger');
    await registerByApi(host, 'Hana', email);
    await loginThroughUi(page, email, 'secret12');
    await page.goto('/create-session');
    await page.getByRole('button', { name: 'Create Session' }).click();
    await expect(page).toHaveURL(/\/waiting-room$/);
    const other = await guestJoins(guest, page, 'Gus');
    await page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await page.getByRole('button', { name: 'Start voting' }).click();
    await expect(page).toHaveURL(/\/voting$/, { timeout: 10_000 });
    await expect(other).toHaveURL(/\/voting$/, { timeout: 10_000 });

    // Cards carry the richer facts and a photo.
    const hostCards = page.getByTestId('place-card');
    await expect(hostCards).toHaveCount(5);
    await expect(hostCards.first().getByLabel(/^Rated /)).toBeVisible();
    await expect(hostCards.first().locator('img')).toHaveAttribute('src', /\/api\/v1\/places\/photo/);

    // The host says yes only to the second place, then nudges the guest, who has not voted.
    for (let i = 0; i < 5; i++)
      await hostCards
        .nth(i)
        .getByText(i === 1 ? 'Yes' : 'No', { exact: true })
        .click();
    await page.getByRole('button', { name: 'Submit Votes' }).click();
    await expect(page.getByText('Votes submitted successfully!')).toBeVisible();
    await page.getByRole('button', { name: 'Nudge' }).click();
    await expect(page.getByText('Nudged 1 person.')).toBeVisible();
    await expect(
      other.getByText('Hana is waiting for your votes. No rush, just a friendly nudge!'),
    ).toBeVisible();
    await shot(other, 'nudged-guest');
    await page.getByRole('button', { name: 'Nudge' }).click();
    await expect(
      page.getByText("Everyone who hasn't voted was nudged in the last 30 seconds. Give them a moment."),
    ).toBeVisible();

    // The guest votes with the keyboard alone: Y / N on each card, the arrows to move, Enter to submit.
    const cards = other.getByTestId('place-card');
    const announcer = other.getByTestId('vote-announcer');
    await cards.first().focus();
    const names = await cards.locator('h2').allTextContents();
    await other.keyboard.press('y');
    await expect(announcer).toHaveText(`Yes for ${names[0]}. 1 of 5 chosen.`);
    await other.keyboard.press('n');
    await other.keyboard.press('y');
    await expect(announcer).toHaveText(`Yes for ${names[2]}. 3 of 5 chosen.`);
    await expect(other.getByTestId('chosen-count')).toHaveText('3 of 5 chosen');
    // Enter does nothing until all 5 are chosen.
    await other.keyboard.press('Enter');
    await expect(other.getByText('Votes submitted successfully!')).toHaveCount(0);
    await other.keyboard.press('ArrowLeft');
    await expect(cards.nth(2)).toBeFocused();
    await other.keyboard.press('ArrowRight');
    await expect(cards.nth(3)).toBeFocused();
    await other.keyboard.press('n');
    await other.keyboard.press('y');
    await expect(announcer).toHaveText(`Yes for ${names[4]}. 5 of 5 chosen. Press Enter to submit.`);
    await expect(cards.nth(0)).toHaveClass(/fv-place-up/);
    await expect(cards.nth(1)).toHaveClass(/fv-place-down/);
    await other.keyboard.press('Enter');

    // Nobody agreed on everything: the headline says so, and the closest places are set apart.
    for (const p of [page, other]) {
      await expect(p).toHaveURL(/\/results$/, { timeout: 10_000 });
      await expect(p.getByTestId('results-headline')).toHaveText('No unanimous winner');
      await expect(p.getByTestId('winner-card')).toHaveCount(0);
      const closest = p.getByTestId('closest');
      await expect(closest.getByRole('heading', { name: 'Closest to unanimous' })).toBeVisible();
      await expect(closest.locator('ol > li')).toHaveCount(3);
      await expect(closest.getByText('1 of 2 said yes · 50% approval')).toHaveCount(3);
    }
    await noSeriousViolations(other, 'results with closest to unanimous');
    await shot(other, 'closest-to-unanimous');
  } finally {
    await host.close();
    await guest.close();
  }
});
