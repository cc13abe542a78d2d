import { Browser, BrowserContext, expect, Page, test } from '@playwright/test';
import { loginThroughUi, registerByApi, shot, uniqueEmail } from './helpers';

/** Registers and pays (offline checkout) through the API, then logs in through the UI in a new context. */
async function signedInPage(
  browser: Browser,
  baseURL: string,
  name: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const email = uniqueEmail(name.toLowerCase());
  await registerByApi(context, name, email);
  await loginThroughUi(page, email, 'secret12');
  return { context, page };
}

async function createRoom(host: Page): Promise<string> {
  await host.goto('/create-session');
  await expect(host.getByText('Create a New Session')).toBeVisible();
  await host.getByRole('button', { name: 'Create Session' }).click();
  await expect(host).toHaveURL(/\/waiting-room$/);
  await expect(host.getByTestId('connection-status')).toContainText('Connected to Waiting Room events');
  return (await host.getByTestId('room-code').textContent())!.trim();
}

async function startVoting(host: Page, withFilters: boolean) {
  await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
  if (withFilters) {
    await host.getByRole('button', { name: 'Filtering' }).click();
    const dialog = host.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cuisine Type' }).click();
    await dialog.getByRole('checkbox', { name: /Asian/ }).check();
    await shot(host, 'session-filtering-dialog');
    await dialog.getByRole('button', { name: 'Done' }).click();
  }
  await host.getByRole('button', { name: 'Start voting' }).click();
}

async function voteAll(page: Page, yesFirst: boolean) {
  await expect(page.getByText('Time to Vote!')).toBeVisible();
  const cards = page.getByTestId('place-card');
  await expect(cards).toHaveCount(5);
  const submit = page.getByRole('button', { name: 'Submit Votes' });
  for (let i = 0; i < 5; i++) {
    await expect(submit).toBeDisabled();
    await cards
      .nth(i)
      .getByText(i === 0 && yesFirst ? 'Yes' : 'No', { exact: true })
      .click();
  }
  await submit.click();
  await expect(
    page
      .getByText('Votes submitted successfully! Waiting for others to submit their votes.')
      .or(page.getByText('Results', { exact: true })),
  ).toBeVisible();
}

test('three people: create, join by link and by code, live presence, filters, vote, a unanimous winner, close', async ({
  browser,
  baseURL,
}) => {
  // Three browsers through a whole session: near the default minute on a loaded machine.
  test.setTimeout(120_000);
  const host = await signedInPage(browser, baseURL!, 'Hana');
  const member = await signedInPage(browser, baseURL!, 'Max');
  const guestContext = await browser.newContext({ baseURL });
  const guest = await guestContext.newPage();
  try {
    const code = await createRoom(host.page);

    // The member joins by code; the name comes from their account.
    await member.page.goto('/join-session');
    await expect(member.page.getByLabel('Your Name')).toHaveValue('Max');
    await member.page.getByLabel('Waiting Room ID').fill(code.toLowerCase());
    await member.page.getByRole('button', { name: 'Join Session' }).click();
    await expect(member.page).toHaveURL(/\/waiting-room$/);

    // The guest joins by the invite link.
    await guest.goto(`/join-session?waitingRoomId=${code}`);
    await expect(guest.getByLabel('Waiting Room ID')).toHaveValue(code);
    await guest.getByLabel('Your Name').fill('Gus the Guest');
    await guest.getByRole('button', { name: 'Join Session' }).click();
    await expect(guest.getByText('Waiting for host to start voting...')).toBeVisible();
    // A reload keeps the guest in the room.
    await guest.reload();
    await expect(guest.getByText('Waiting for host to start voting...')).toBeVisible();
    await expect(guest.getByText('Gus the Guest')).toBeVisible();

    await expect(host.page.getByText('People in the session (3)')).toBeVisible();
    await expect(host.page.getByText('Gus the Guest')).toBeVisible();
    await shot(host.page, 'session-waiting-room-host');
    await shot(guest, 'session-waiting-room-guest');

    await startVoting(host.page, true);
    await expect(guest.getByText('Get Ready to Vote!')).toBeVisible();
    await shot(guest, 'session-overlay');
    for (const page of [host.page, member.page, guest])
      await expect(page).toHaveURL(/\/voting$/, { timeout: 10_000 });
    await shot(member.page, 'session-voting');

    await voteAll(host.page, true);
    await expect(host.page.getByText('Voting Progress')).toBeVisible();
    await shot(host.page, 'session-voting-progress');
    await voteAll(member.page, true);
    await voteAll(guest, true);

    for (const page of [host.page, member.page, guest]) {
      await expect(page).toHaveURL(/\/results$/);
      await expect(page.getByTestId('results-headline')).toHaveText('We have a unanimous winner!');
      await expect(page.getByTestId('winner-card')).toContainText('100% approval');
    }
    await guest.getByText('Show voting details').click();
    await shot(guest, 'session-results');

    // The host closes the session (asked first: it ends the room for everyone); the others are sent home
    // and told why.
    await host.page.getByRole('button', { name: 'Close Session' }).click();
    await expect(host.page.getByRole('dialog')).toContainText('Close the session?');
    await shot(host.page, 'results-close-session-confirm');
    await host.page.getByRole('dialog').getByRole('button', { name: 'Close Session' }).click();
    await expect(host.page).toHaveURL(/\/$/);
    for (const page of [guest, member.page]) {
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('dialog')).toContainText('This waiting room has been closed.');
    }
    await shot(guest, 'session-closed-by-host');
    await guest.getByRole('button', { name: 'OK' }).click();
    await expect(guest.getByRole('dialog')).toHaveCount(0);
    await expect(guest.getByText('Never argue about where to eat again')).toBeVisible();
  } finally {
    await Promise.all([host.context.close(), member.context.close(), guestContext.close()]);
  }
});

test('no winner → next batches → no more places; a dropped connection misses no event', async ({
  browser,
  baseURL,
}) => {
  // Three batches with two people and a cut stream: about 45 s alone, longer beside another browser.
  test.setTimeout(120_000);
  const host = await signedInPage(browser, baseURL!, 'Nina');
  const guestContext = await browser.newContext({ baseURL });
  const guest = await guestContext.newPage();
  try {
    const code = await createRoom(host.page);
    await guest.goto('/join-session');
    await guest.getByLabel('Your Name').fill('Gail');
    await guest.getByLabel('Waiting Room ID').fill(code);
    await guest.getByRole('button', { name: 'Join Session' }).click();
    await expect(host.page.getByText('People in the session (2)')).toBeVisible();
    await startVoting(host.page, false);
    await expect(guest).toHaveURL(/\/voting$/, { timeout: 10_000 });

    // The guest votes, then loses the network while the host votes.
    await voteAll(guest, false);
    await guestContext.setOffline(true);
    await expect(guest.getByText('Voting Progress')).toBeVisible();
    await voteAll(host.page, false);
    await guestContext.setOffline(false);
    await expect(guest).toHaveURL(/\/results$/, { timeout: 15_000 });
    await expect(guest.getByTestId('results-headline')).toHaveText('No unanimous winner');

    // Batches 1 to 3, then there is nothing left (20 places, 5 per batch).
    for (let batch = 1; batch <= 3; batch++) {
      await host.page.getByRole('button', { name: 'Click here to vote on more restaurants' }).click();
      for (const page of [host.page, guest]) await expect(page).toHaveURL(/\/voting$/);
      await voteAll(host.page, false);
      await voteAll(guest, false);
      await expect(host.page).toHaveURL(/\/results$/);
    }
    // SPEC §4: the host leaves first (the others hear at once), then sees the dialog.
    await host.page.getByRole('button', { name: 'Click here to vote on more restaurants' }).click();
    await expect(host.page).toHaveURL(/\/$/);
    await expect(
      host.page.getByText(
        "It doesn't look like there are any more places to vote on. Try changing the search radius",
      ),
    ).toBeVisible();
    await expect(guest).toHaveURL(/\/$/);
    await expect(guest.getByRole('dialog')).toContainText('This waiting room has been closed.');
    await shot(host.page, 'session-no-more-places');
    await host.page.getByRole('button', { name: 'OK' }).click();
    await expect(host.page.getByRole('dialog')).toHaveCount(0);
  } finally {
    await Promise.all([host.context.close(), guestContext.close()]);
  }
});
