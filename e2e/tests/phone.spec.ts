import { expect, test } from '@playwright/test';
import { shot } from './helpers';

/** What a person on a phone meets: the findings of the phone review, each driven as they would. */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

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
