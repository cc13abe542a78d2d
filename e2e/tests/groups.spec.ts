import { expect, test } from '@playwright/test';
import { axeProblems, guestJoins, shot, signedIn, votingTogether, voteYesTo } from './helpers';
import { smallTargets } from './tap-targets';

/**
 * Groups that come back, in the browser: private limits set by a guest on a phone (only a count reaches
 * the host), and a saved group started again whose member finds "Hana invited you to Friday lunch" on the
 * home page and joins from it. At 1280 and 390 wide.
 */
test('a guest sets private limits on a phone, and the host sees only how many places they left out', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const host = await signedIn(browser, baseURL!, 'Hana');
  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, hasTouch: true });
  try {
    await host.page.goto('/create-session');
    await host.page.getByRole('button', { name: 'Create Session' }).click();
    const vera = await guestJoins(phone, host.page, 'Vera');
    const card = vera.getByRole('region', { name: 'Your private limits' });
    await expect(card).toContainText('Only you see these');
    await card.getByLabel('Diet').selectOption('vegan');
    await expect(card.getByRole('status')).toHaveText('Your limits are saved. Only you can see them.');
    await card.getByLabel('Longest distance').selectOption({ label: 'Within 2 miles (3.2 km)' });
    await expect(card.getByLabel('Longest distance')).toHaveValue('3219');
    await shot(vera, 'limits-390');
    expect(await smallTargets(vera)).toEqual([]);
    expect(await axeProblems(vera), 'the waiting room with limits at 390').toEqual([]);
    // The host's waiting room has its own (empty) limits: nothing of Vera's.
    const hostCard = host.page.getByRole('region', { name: 'Your private limits' });
    await expect(hostCard.getByLabel('Diet')).toHaveValue('');
    await shot(host.page, 'limits-1280');

    await host.page.getByRole('textbox', { name: 'Zip code' }).fill('10001');
    await host.page.getByRole('button', { name: 'Start voting' }).click();
    await expect(host.page).toHaveURL(/\/voting$/, { timeout: 15_000 });
    await expect(host.page.getByTestId('left-out')).toHaveText(/^\d+ places? left out by private limits$/);
    await shot(host.page, 'limits-host-count-1280');
    await expect(vera).toHaveURL(/\/voting$/, { timeout: 15_000 });
    await expect(vera.getByTestId('place-card').first()).toBeVisible();
    await expect(vera.getByTestId('left-out')).toHaveCount(0);
  } finally {
    await Promise.all([host.context.close(), phone.close()]);
  }
});

test('a saved group started again: the member’s home page invites them, and Join takes them in', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const host = await signedIn(browser, baseURL!, 'Hana');
  const member = await signedIn(browser, baseURL!, 'Max');
  try {
    const code = await votingTogether(host.page, member.page);
    await voteYesTo(host.page, 1);
    await voteYesTo(member.page, 1);
    await expect(host.page.getByTestId('results-headline')).toHaveText('We have a unanimous winner!');

    // Save this group (the host only).
    await expect(member.page.getByRole('region', { name: 'Save this group' })).toHaveCount(0);
    const save = host.page.getByRole('region', { name: 'Save this group' });
    await save.getByRole('textbox').fill('Friday lunch');
    await save.getByRole('button', { name: 'Save group' }).click();
    await expect(save.getByRole('status')).toContainText('Saved “Friday lunch”');
    await host.page.getByRole('button', { name: 'Close Session' }).click();
    await host.page.getByRole('dialog').getByRole('button', { name: 'Close Session' }).click();
    await expect(host.page).toHaveURL(/\/$/);
    await expect(member.page).toHaveURL(/\/$/, { timeout: 15_000 });

    // Start with this group, from the create page.
    await host.page.goto('/create-session');
    const group = host.page.getByTestId('saved-group').filter({ hasText: 'Friday lunch' });
    await expect(group).toContainText('Max');
    await shot(host.page, 'create-with-group-1280');
    await group.getByRole('button', { name: 'Start with this group' }).click();
    await expect(host.page).toHaveURL(/\/waiting-room$/);
    // The search settings start where the group searched last time.
    await expect(host.page.getByText('Searching where Friday lunch searched last time.')).toBeVisible();
    await expect(host.page.getByRole('spinbutton').first()).toHaveValue('5');
    await shot(host.page, 'group-room-1280');
    const newCode = (await host.page.getByTestId('room-code').textContent())!.trim();
    expect(newCode).not.toBe(code);

    // The member's home page: the invitation, at 1280 and on a phone; Join takes them in.
    await member.page.goto('/');
    const invite = member.page.getByTestId('invitation-card');
    await expect(invite).toContainText('Hana invited you to Friday lunch');
    await shot(member.page, 'invitation-1280');
    expect(await axeProblems(member.page), 'the home page with an invitation').toEqual([]);
    // The member's phone, loaded at its width (a desk page narrowed later keeps its desk header a moment).
    await member.page.close();
    const memberPhone = await member.context.newPage();
    await memberPhone.setViewportSize({ width: 390, height: 844 });
    await memberPhone.goto('/');
    const onPhone = memberPhone.getByTestId('invitation-card');
    await expect(onPhone).toContainText('Hana invited you to Friday lunch');
    await shot(memberPhone, 'invitation-390');
    expect(await smallTargets(memberPhone)).toEqual([]);
    await onPhone.getByRole('button', { name: 'Join' }).click();
    await expect(memberPhone).toHaveURL(/\/waiting-room$/);
    await expect(host.page.getByText('People in the session (2)')).toBeVisible();
    await memberPhone.goto('/');
    await expect(memberPhone.getByTestId('invitation-card')).toHaveCount(0);

    // The profile's Groups tab: the host manages, the member can leave.
    await host.page.goto('/profile');
    await host.page.getByRole('tab', { name: 'Groups' }).click();
    await expect(host.page.getByTestId('saved-group')).toContainText('Friday lunch');
    await expect(host.page.getByRole('button', { name: 'Remove Max from Friday lunch' })).toBeVisible();
    await shot(host.page, 'groups-tab-1280');
    expect(await axeProblems(host.page), 'the Groups tab').toEqual([]);
    // The same tab on the owner's phone.
    const phone = await host.context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/profile');
    await phone.getByRole('tab', { name: 'Groups' }).click();
    await expect(phone.getByTestId('saved-group')).toBeVisible();
    expect(await smallTargets(phone)).toEqual([]);
    await shot(phone, 'groups-tab-owner-390');
    // Deleting asks first; keeping it changes nothing.
    await host.page.getByRole('button', { name: 'Delete group' }).click();
    await expect(host.page.getByRole('group', { name: 'Delete Friday lunch?' })).toBeVisible();
    await host.page.getByRole('button', { name: 'Keep it' }).click();
    await expect(host.page.getByTestId('saved-group')).toHaveCount(1);
    await memberPhone.goto('/profile');
    await memberPhone.getByRole('tab', { name: 'Groups' }).click();
    await memberPhone.getByRole('button', { name: 'Leave group' }).click();
    await expect(memberPhone.getByTestId('no-groups')).toBeVisible();
    await shot(memberPhone, 'groups-tab-390');

    // Private limits kept with the profile's preferences, for every next session.
    const preferences = memberPhone.getByRole('tab', { name: 'Restaurant Preferences' });
    await preferences.click();
    await expect(preferences).toHaveAttribute('aria-selected', 'true');
    await memberPhone.getByRole('combobox', { name: 'Diet' }).click();
    await memberPhone.locator('.ant-select-item-option').filter({ hasText: 'Vegetarian' }).click();
    await memberPhone.getByRole('button', { name: 'Save Changes' }).click();
    await expect(memberPhone.getByText('Changes saved successfully')).toBeVisible();
    await shot(memberPhone, 'profile-limits-390');
    const me = await member.context.request.get('/api/v1/me');
    expect((await me.json()).limits).toEqual({
      diet: 'vegetarian',
      maxPriceLevel: null,
      maxDistanceMeters: null,
    });
  } finally {
    await Promise.all([host.context.close(), member.context.close()]);
  }
});
