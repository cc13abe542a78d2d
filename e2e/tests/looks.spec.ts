import { expect, test } from '@playwright/test';
import { loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';

/** How the app looks where a first look found it wanting. */

test('a signed-in header stays on one line at 800 px: the menu is a side sheet there', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const email = uniqueEmail('header');
    await registerByApi(context, 'Wide Name Person', email);
    await loginThroughUi(page, email, 'secret12');
    await page.setViewportSize({ width: 800, height: 900 });
    const header = page.locator('header');
    await expect(header.getByRole('button', { name: 'Open menu' })).toBeVisible();
    expect((await header.boundingBox())!.height).toBeLessThan(80);
    await header.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog').getByRole('button', { name: 'Log Out' })).toBeVisible();
    await shot(page, 'header-800-menu');
  } finally {
    await context.close();
  }
});

test('a vote that fails says so beside Submit, where the voter is looking', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const email = uniqueEmail('voteerr');
    await registerByApi(context, 'Vera Voter', email);
    await loginThroughUi(page, email, 'secret12');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/create-session');
    await page.getByRole('button', { name: 'Create Session' }).click();
    await page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await page.getByRole('button', { name: 'Start voting' }).click();
    await page.getByRole('button', { name: 'Continue with single person' }).click();
    await expect(page).toHaveURL(/\/voting$/, { timeout: 10_000 });
    const cards = page.getByTestId('place-card');
    for (let i = 0; i < 5; i++) await cards.nth(i).getByText('No', { exact: true }).click();
    await page.route('**/api/v1/waiting-room/vote', (route) =>
      route.fulfill({ status: 400, json: { statusCode: 400, error: 'Voting is closed for now.' } }),
    );
    const submit = page.getByRole('button', { name: 'Submit Votes' });
    await submit.click();
    const error = page.getByRole('alert').filter({ hasText: 'Error: Voting is closed for now.' });
    await expect(error).toBeInViewport();
    expect((await error.boundingBox())!.y).toBeGreaterThan((await submit.boundingBox())!.y);
    await shot(page, 'vote-error-390');
  } finally {
    await context.close();
  }
});

test('the "Get Ready to Vote!" overlay covers the page completely', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    const email = uniqueEmail('overlay');
    await registerByApi(context, 'Olive Overlay', email);
    await loginThroughUi(page, email, 'secret12');
    await page.goto('/create-session');
    await page.getByRole('button', { name: 'Create Session' }).click();
    await page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await page.getByRole('button', { name: 'Start voting' }).click();
    await page.getByRole('button', { name: 'Continue with single person' }).click();
    const overlay = page.getByRole('alertdialog', { name: 'Get Ready to Vote!' });
    await expect(overlay).toBeVisible();
    const background = await overlay.evaluate((element) => {
      const view = globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } };
      return view.getComputedStyle(element).backgroundImage;
    });
    // Opaque colours only: a gradient of rgb(), no rgba() that would let the page show through.
    expect(background).toMatch(/^linear-gradient/);
    expect(background).not.toContain('rgba');
    await shot(page, 'overlay-opaque');
  } finally {
    await context.close();
  }
});
