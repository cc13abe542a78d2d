import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

/** axe-core on the public and account pages: no serious or critical violations. */
const PAGES = [
  '/',
  '/join-session',
  '/login',
  '/register',
  '/forgot-password',
  '/pricing',
  '/how-it-works',
  '/about',
  '/help',
  '/feedback',
  '/terms',
  '/no-such-page',
];

for (const path of PAGES) {
  test(`${path} has no serious accessibility violations`, async ({ page }) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    ).toEqual([]);
  });
}
