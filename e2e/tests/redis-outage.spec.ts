import { expect, test } from '@playwright/test';
import { freePort, startRedisServer as startRedis, startTestStack } from '@forkvote/testing/src/stack';
import { loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';

/**
 * A signed-in user whose server loses its Redis: the page says it is reconnecting and never shows the
 * signed-out menu; when Redis is back it recovers by itself, without a reload. A stack of its own, on a
 * Redis of its own, so the outage touches no other test.
 */
test('a Redis outage shows "reconnecting", never signed out, and recovers without a reload', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const port = await freePort();
  let redis = await startRedis(port);
  const stack = await startTestStack({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
  try {
    await stack.waitHealthy(60_000);
    const context = await browser.newContext({ baseURL: stack.url });
    const page = await context.newPage();
    const email = uniqueEmail('outage');
    await registerByApi(context, 'Otto Outage', email);
    await loginThroughUi(page, email, 'secret12');
    await page.goto('/profile');
    await expect(page.getByTestId('header-user-name')).toHaveText('Otto Outage');

    redis.kill('SIGKILL');
    await new Promise((resolve) => redis.once('exit', resolve));
    // A reload during the outage: the session cannot be checked, so the app says so and keeps waiting.
    await page.reload();
    await expect(page.getByTestId('reconnecting')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('link', { name: 'Log In' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/profile$/);
    await shot(page, 'redis-outage-reconnecting');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByTestId('reconnecting')).toBeVisible();
    await shot(page, 'redis-outage-reconnecting-390');
    await page.setViewportSize({ width: 1280, height: 720 });

    redis = await startRedis(port);
    await expect(page.getByTestId('header-user-name')).toHaveText('Otto Outage', { timeout: 30_000 });
    await expect(page.getByTestId('reconnecting')).toHaveCount(0);
    await expect(page).toHaveURL(/\/profile$/);
    // On a phone the name sits in the side sheet; the page itself shows the profile, no banner.
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'redis-outage-recovered-390');
    await context.close();
  } finally {
    await stack.stop();
    redis.kill('SIGKILL');
  }
});
