import { expect, test } from '@playwright/test';
import { axeProblems, shot, signedIn, votingTogether, voteYesTo } from './helpers';

/**
 * Groups that come back: a registered member finds a closed session on the profile's History tab (at 1280
 * and 390 wide), and the place it chose is marked on the host's next ballot.
 */
test('a closed session is in the members’ history, and its winner is marked next time', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const host = await signedIn(browser, baseURL!, 'Hana');
  const member = await signedIn(browser, baseURL!, 'Max');
  try {
    await votingTogether(host.page, member.page);
    const winner = (await member.page.getByTestId('place-card').nth(2).locator('h2').textContent())!.trim();
    await voteYesTo(host.page, 2);
    await voteYesTo(member.page, 2);
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
