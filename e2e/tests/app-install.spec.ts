import { expect, test } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '@forkvote/testing/src/fixtures';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The installable app: Chrome's own installability check (what Lighthouse's installability audit ran, before
 * Lighthouse 12 dropped its PWA category) finds nothing missing, the service worker keeps the shell, so a
 * reload with no network opens the app, and API calls are never answered from its cache.
 */
test('installable, and a reload without a network opens the app from its shell', async ({
  playwright,
  baseURL,
}) => {
  // A profile of its own: Chrome never offers to install from an incognito window, which a test's context is.
  const profile = mkdtempSync(join(tmpdir(), 'forkvote-install-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
    baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The worker takes the page once it has installed (it precaches the shell first).
    await expect
      .poll(() => page.evaluate('navigator.serviceWorker.controller !== null'), { timeout: 30_000 })
      .toBe(true);

    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    const manifest = await cdp.send('Page.getAppManifest');
    expect(manifest.errors).toEqual([]);
    await cdp.detach();

    // No network: the shell opens at once, on a route the worker never saw.
    await context.setOffline(true);
    try {
      await page.goto('/how-it-works');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/How It Works/);
      // The API is not cached: a call fails rather than answering something old.
      const api = await page.evaluate(() =>
        fetch('/api/v1/health').then(
          (r) => r.status,
          () => 'network error',
        ),
      );
      expect(api).toBe('network error');
    } finally {
      await context.setOffline(false);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

/**
 * The first-load budget: a phone opening an invite link (/join-session) fetches at most 200 KB of scripts as
 * they travel (compressed), the service worker's own script included. Bytes, not time: the same build
 * gives the same figure on any machine.
 */
test('the first load of /join-session stays within 200 KB of compressed JavaScript', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const scripts: Promise<{ url: string; bytes: number }>[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() === 'script' || /\.m?js(\?|$)/.test(request.url()))
        scripts.push(request.sizes().then((s) => ({ url: request.url(), bytes: s.responseBodySize })));
    });
    await page.goto('/join-session?waitingRoomId=ABC123');
    await expect(page.getByRole('button', { name: 'Join Session' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const loaded = await Promise.all(scripts);
    const total = loaded.reduce((sum, s) => sum + s.bytes, 0);
    console.log(
      `first load of /join-session: ${loaded.length} scripts, ${Math.round(total / 1024)} KB compressed`,
    );
    expect(loaded.length).toBeGreaterThan(0);
    expect(total, loaded.map((s) => `${s.url} ${s.bytes}`).join('\n')).toBeLessThanOrEqual(200 * 1024);
  } finally {
    await context.close();
  }
});
