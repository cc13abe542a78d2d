import { expect, test } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

test('the home page shows the header, the footer and a healthy system', async ({ page }) => {
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

  await expect(page.getByTestId('system-status')).toContainText('All systems operational');
  for (const service of ['auth', 'rooms', 'billing', 'places']) {
    await expect(page.getByTestId('system-status')).toContainText(service);
  }
  await page.screenshot({ path: join(ARTIFACTS, 'home.png'), fullPage: true });
});

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page Not Found')).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});
