import { expect, test } from '@playwright/test';
import { loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';

/** The SPEC rules a first look found missing, each checked as a person meets it. */

test('submitting an invalid waiting room ID raises the "Invalid waiting room ID" alert (§5)', async ({
  page,
}) => {
  await page.goto('/join-session');
  await page.getByLabel('Your Name').fill('Ivy');
  await page.getByLabel('Waiting Room ID').fill('AB-12');
  await page.getByRole('button', { name: 'Join Session' }).click();
  await expect(page.getByRole('dialog')).toContainText('Invalid waiting room ID');
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/join-session$/);
});

test('the waiting room ID is trimmed before the 6-character limit applies (§5)', async ({ page }) => {
  await page.goto('/join-session');
  await page.getByLabel('Waiting Room ID').fill(' zz99zz ');
  await expect(page.getByLabel('Waiting Room ID')).toHaveValue('ZZ99ZZ');
});

for (const [path, wording] of [
  [
    '/waiting-room',
    "It doesn't look like you're in a waiting room. You will be redirected to the home page.",
  ],
  ['/voting', "It doesn't look like you're in a session. You will be redirected to the home page."],
  ['/results', "It doesn't look like you're in a session. You will be redirected to the home page."],
]) {
  test(`a guest with no room on ${path} is told so and taken home by itself (§2)`, async ({ page }) => {
    // A guest whose room has gone: the guest marker without a room.
    await page.addInitScript("sessionStorage.setItem('forkvote:guest', '1')");
    await page.goto(path);
    await expect(page.getByRole('dialog')).toContainText(wording);
    await expect(page).toHaveURL(/\/$/, { timeout: 6_000 });
  });
}

test('a verify-token failure other than 401 shows "Token verification failed" (§8)', async ({ page }) => {
  await page.route('**/api/v1/auth/verify-token', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"statusCode":500,"message":"x"}' }),
  );
  await page.goto('/');
  await expect(page.getByTestId('reconnecting')).toContainText('Token verification failed');
});

test('"One person!" → "Invite Friends" copies the link and says "Copied to clipboard!" (§2)', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, permissions: ['clipboard-read', 'clipboard-write'] });
  try {
    const page = await context.newPage();
    const email = uniqueEmail('solo');
    await registerByApi(context, 'Solo Host', email);
    await loginThroughUi(page, email, 'secret12');
    await page.goto('/create-session');
    await page.getByRole('button', { name: 'Create Session' }).click();
    await expect(page).toHaveURL(/\/waiting-room$/);
    const code = (await page.getByTestId('room-code').textContent())!.trim();
    // Dismissing the dialog (Escape, ×) does nothing: no copy, no start.
    await page.evaluate("navigator.clipboard.writeText('untouched')");
    await page.getByRole('button', { name: 'Start voting' }).click();
    await expect(page.getByRole('dialog')).toContainText('One person!');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Start voting' }).click();
    await expect(page.getByRole('dialog')).toContainText('One person!');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByText('Copied to clipboard!')).toHaveCount(0);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('untouched');
    await expect(page).toHaveURL(/\/waiting-room$/);

    await page.getByRole('button', { name: 'Start voting' }).click();
    await expect(page.getByRole('dialog')).toContainText('One person!');
    await page.getByRole('dialog').getByRole('button', { name: 'Invite Friends' }).click();
    await expect(page.getByText('Copied to clipboard!').first()).toBeVisible();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(
      `${new URL(baseURL!).origin}/join-session?waitingRoomId=${code}`,
    );
    await shot(page, 'one-person-invite-copied');
  } finally {
    await context.close();
  }
});

test('the forgot-password success message hides after 3 seconds (§9)', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(uniqueEmail('forgot'));
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const success = page.getByText('Success! Check your email for a link to reset your password.');
  await expect(success).toBeVisible();
  await expect(success).toHaveCount(0, { timeout: 5_000 });
});
