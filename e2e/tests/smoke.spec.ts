import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

test('the home page shows the header and the footer, and no status while all is well', async ({ page }) => {
  const health = page.waitForResponse('**/api/v1/health');
  await page.goto('/');
  const header = page.locator('header');
  await expect(header.getByRole('link', { name: 'ForkVote home' })).toBeVisible();
  await expect(header.getByText('Fork', { exact: true })).toBeVisible();
  await expect(header.getByText('Vote', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Never argue about where to eat again' })).toBeVisible();

  const footer = page.locator('footer');
  for (const name of ['About', 'Terms', 'Privacy', 'Help', 'Feedback']) {
    await expect(footer.getByRole('link', { name })).toBeVisible();
  }
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`);

  await health;
  await expect(page.getByTestId('system-status')).toHaveCount(0);
  await page.screenshot({ path: join(ARTIFACTS, 'home.png'), fullPage: true });
});

test('a banner names what is down, and only while it is', async ({ page }) => {
  let down = true;
  await page.route('**/api/v1/health', async (route) => {
    const response = await route.fetch();
    const health = await response.json();
    if (down) {
      health.status = 'degraded';
      health.parts = health.parts.map((p: { part: string }) =>
        p.part === 'places' ? { ...p, status: 'degraded' } : p,
      );
    }
    await route.fulfill({ status: down ? 503 : 200, json: health });
  });
  await page.goto('/join-session');
  await expect(page.getByTestId('system-status')).toContainText(
    'Some of ForkVote is not answering right now: place search.',
  );
  down = false;
  const healthy = page.waitForResponse('**/api/v1/health');
  await page.reload();
  await healthy;
  await expect(page.getByTestId('system-status')).toHaveCount(0);
});

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page Not Found')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});
