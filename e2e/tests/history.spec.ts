import { Browser, expect, Page, test } from '@playwright/test';
import { axeProblems, registerByApi, shot, uniqueEmail } from './helpers';

/**
 * Groups that come back: a registered member finds a closed session on the profile's History tab (at 1280
 * and 390 wide), and the place it chose is marked on the host's next ballot.
 */
async function signedIn(browser: Browser, baseURL: string, name: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 800 } });
  const email = uniqueEmail(name.toLowerCase());
  await registerByApi(context, name, email);
  const login = await context.request.post('/api/v1/auth/login', {
    data: { email, password: 'secret12', rememberMe: false },
  });
  expect(login.status()).toBe(200);
  return { context, page: await context.newPage() };
}

async function vote(page: Page, yes: number) {
  const cards = page.getByTestId('place-card');
  await expect(cards).toHaveCount(5);
  for (let i = 0; i < 5; i++)
    await cards
      .nth(i)
      .getByText(i === yes ? 'Yes' : 'No', { exact: true })
      .click();
  await page.getByRole('button', { name: 'Submit Votes' }).click();
}

test('a closed session is in the members’ history, and its winner is marked next time', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const host = await signedIn(browser, baseURL!, 'Hana');
  const member = await signedIn(browser, baseURL!, 'Max');
  try {
    await host.page.goto('/create-session');
    await host.page.getByRole('button', { name: 'Create Session' }).click();
    const code = (await host.page.getByTestId('room-code').textContent())!.trim();
    await member.page.goto(`/join-session?waitingRoomId=${code}`);
    await member.page.getByRole('button', { name: 'Join Session' }).click();
    await expect(host.page.getByText('People in the session (2)')).toBeVisible();
    await host.page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.page.getByRole('button', { name: 'Start voting' }).click();
    await expect(member.page).toHaveURL(/\/voting$/, { timeout: 15_000 });
    const winner = (await member.page.getByTestId('place-card').nth(2).locator('h2').textContent())!.trim();
    await vote(host.page, 2);
    await vote(member.page, 2);
    await expect(member.page.getByTestId('results-headline')).toHaveText('We have a unanimous winner!');
    await host.page.getByRole('button', { name: 'Close Session' }).click();
    await host.page.getByRole('dialog').getByRole('button', { name: 'Close Session' }).click();
    await expect(host.page).toHaveURL(/\/$/);

    await member.page.goto('/profile');
    await member.page.getByRole('tab', { name: 'History' }).click();
    const session = member.page.getByTestId('history-session').first();
    await expect(session).toContainText('Hana, Max');
    await expect(session.getByTestId('history-outcome')).toHaveText(winner);
    await expect(session).toContainText('Everyone agrees');
    await shot(member.page, 'history-1280');
    expect(await axeProblems(member.page), 'the History tab').toEqual([]);
    await member.page.setViewportSize({ width: 390, height: 844 });
    await session.getByText(/Places voted on/).click();
    await expect(session.getByRole('listitem').filter({ hasText: winner })).toBeVisible();
    await shot(member.page, 'history-390');
    expect(await axeProblems(member.page), 'the History tab at 390').toEqual([]);

    // The host's next session marks the place they picked.
    await host.page.goto('/create-session');
    await host.page.getByRole('button', { name: 'Create Session' }).click();
    await expect(host.page.getByRole('switch', { name: /Prefer new places/ })).not.toBeChecked();
    await host.page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.page.getByRole('button', { name: 'Start voting' }).click();
    await host.page.getByRole('button', { name: 'Continue with single person' }).click();
    await expect(host.page).toHaveURL(/\/voting$/, { timeout: 15_000 });
    const marked = host.page.getByTestId('place-card').filter({ hasText: winner });
    await expect(marked.getByTestId('picked-ago')).toHaveText('You picked this today');
    await shot(host.page, 'fresh-pick-1280');
  } finally {
    await Promise.all([host.context.close(), member.context.close()]);
  }
});
