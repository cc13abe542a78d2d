import { Browser, expect, Page, test } from '@playwright/test';
import { axeProblems, registerByApi, shot, uniqueEmail } from './helpers';

/**
 * Three people decide together (docs/decisions.md): on a phone, a guest swipes through the batch with an
 * undo, the holdouts of a batch with no winner turn a place unanimous, and the plan is shared and opened; on
 * desktop, the host picks a rule, the tie is drawn with the same reveal on every screen, and the plan page
 * and its calendar file answer.
 */
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1280, height: 800 } };
type Look = typeof PHONE | typeof DESKTOP;

async function hostPage(browser: Browser, baseURL: string, look: Look) {
  const context = await browser.newContext({
    baseURL,
    ...look,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const email = uniqueEmail('decider');
  await registerByApi(context, 'Hana', email);
  const login = await context.request.post('/api/v1/auth/login', {
    data: { email, password: 'secret12', rememberMe: false },
  });
  expect(login.status()).toBe(200);
  await page.goto('/create-session');
  await page.getByRole('button', { name: 'Create Session' }).click();
  await expect(page.getByTestId('connection-status')).toContainText('Connected to Waiting Room events');
  return { context, page, code: (await page.getByTestId('room-code').textContent())!.trim() };
}

async function guestPage(browser: Browser, baseURL: string, look: Look, code: string, name: string) {
  const context = await browser.newContext({
    baseURL,
    ...look,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  await page.goto(`/join-session?waitingRoomId=${code}`);
  await page.getByLabel('Your Name').fill(name);
  await page.getByRole('button', { name: 'Join Session' }).click();
  await expect(page.getByText('Waiting for host to start voting...')).toBeVisible();
  return { context, page };
}

async function start(host: Page, people: Page[]) {
  await host.getByRole('textbox', { name: 'Zip code' }).fill('10001');
  await host.getByRole('button', { name: 'Start voting' }).click();
  for (const page of people) await expect(page).toHaveURL(/\/voting$/, { timeout: 15_000 });
}

/** Votes in the list of five: yes to the positions in `yes`, no to the rest, then submits. */
async function voteList(page: Page, yes: number[]) {
  const cards = page.getByTestId('place-card');
  await expect(cards).toHaveCount(5);
  for (let i = 0; i < 5; i++)
    await cards
      .nth(i)
      .getByText(yes.includes(i) ? 'Yes' : 'No', { exact: true })
      .click();
  await page.getByRole('button', { name: 'Submit Votes' }).click();
}

/** A finger's swipe across the top card, as real touch input (Chrome's DevTools protocol). */
async function swipe(page: Page, direction: 'right' | 'left') {
  const box = (await page.getByTestId('swipe-card').boundingBox())!;
  const cdp = await page.context().newCDPSession(page);
  const y = box.y + Math.min(box.height / 2, 200);
  const x = box.x + box.width / 2;
  const dx = direction === 'right' ? 140 : -140;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let step = 1; step <= 6; step++)
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: x + (dx * step) / 6, y }],
    });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

const placeNames = async (page: Page) =>
  (await page.getByTestId('place-card').locator('h2').allTextContents()).map((t) => t.trim());

test('on a phone: swipe with undo, the holdouts turn a place unanimous, the plan is shared', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const host = await hostPage(browser, baseURL!, PHONE);
  const ana = await guestPage(browser, baseURL!, PHONE, host.code, 'Ana');
  const ben = await guestPage(browser, baseURL!, PHONE, host.code, 'Ben');
  try {
    await expect(host.page.getByText('People in the session (3)')).toBeVisible();
    await expect(ana.page.getByTestId('decision-rule')).toHaveText('Everyone agrees');
    await start(host.page, [host.page, ana.page, ben.page]);
    const names = await placeNames(host.page);

    // Host: yes to the first two. Ben: yes to the second only.
    await voteList(host.page, [0, 1]);
    await voteList(ben.page, [1]);

    // Ana swipes: yes to the first, no to the second, takes that back, then yes-no-no-no by the buttons.
    await ana.page.getByRole('button', { name: 'Swipe through them' }).click();
    await expect(ana.page.getByTestId('swipe-card')).toContainText(names[0]);
    await shot(ana.page, 'decisions-swipe-390', false);
    expect(await axeProblems(ana.page), 'the card stack').toEqual([]);
    await swipe(ana.page, 'right');
    await expect(ana.page.getByTestId('swipe-card')).toContainText(names[1]);
    await swipe(ana.page, 'left');
    await expect(ana.page.getByTestId('swipe-card')).toContainText(names[2]);
    await expect(ana.page.getByTestId('chosen-count')).toHaveText('2 of 5 chosen');
    await ana.page.getByRole('button', { name: 'Undo' }).click();
    await expect(ana.page.getByTestId('swipe-card')).toContainText(names[1]);
    await expect(ana.page.getByTestId('chosen-count')).toHaveText('1 of 5 chosen');
    const submit = ana.page.getByRole('button', { name: 'Submit Votes' });
    await expect(submit).toBeDisabled();
    await ana.page.getByRole('button', { name: `No to ${names[1]}` }).click();
    for (let i = 2; i < 5; i++) await ana.page.getByRole('button', { name: `No to ${names[i]}` }).click();
    await expect(ana.page.getByTestId('deck-summary')).toContainText(names[4]);
    await shot(ana.page, 'decisions-swipe-summary-390', false);
    await submit.click();

    // Place 0: 2 of 3 (Ben said no); place 1: 2 of 3 (Ana said no). No unanimous winner.
    for (const page of [host.page, ana.page, ben.page]) {
      await expect(page).toHaveURL(/\/results$/);
      await expect(page.getByTestId('results-headline')).toHaveText('No unanimous winner');
    }
    await expect(ana.page.getByRole('button', { name: 'Ask the holdouts' })).toHaveCount(0);
    await host.page.getByRole('button', { name: 'Ask the holdouts' }).click();
    await expect(ben.page.getByText(`Could you live with ${names[0]}?`)).toBeVisible();
    await expect(ana.page.getByText(`Could you live with ${names[1]}?`)).toBeVisible();
    await expect(host.page.getByTestId('holdout-status')).toContainText(
      'Waiting for 2 people to reconsider…',
    );
    await shot(ben.page, 'decisions-holdout-question-390');
    expect(await axeProblems(ben.page), 'the holdout question').toEqual([]);
    await ben.page.getByRole('button', { name: 'Yes', exact: true }).click();
    await expect(host.page.getByTestId('holdout-status')).toContainText(
      'Waiting for 1 person to reconsider…',
    );
    await shot(host.page, 'decisions-holdout-waiting-390');
    await ana.page.getByRole('button', { name: 'No', exact: true }).click();

    for (const page of [host.page, ana.page, ben.page]) {
      await expect(page.getByTestId('results-headline')).toHaveText('We have a unanimous winner!');
      await expect(page.getByTestId('winner-card')).toContainText(names[0]);
      await expect(page.getByTestId('agreed')).toHaveText('Agreed after a second look');
    }
    await shot(ben.page, 'decisions-agreed-390');

    // Ben shares the plan (no share sheet here: the link is copied) and opens it.
    await ben.page.getByRole('button', { name: 'Share the plan' }).click();
    await expect(ben.page.getByText('Copied to clipboard!')).toBeVisible();
    const link = (await ben.page.evaluate('navigator.clipboard.readText()')) as string;
    expect(link).toMatch(/\/plan\/[A-Za-z0-9_-]{22}$/);
    const plan = await ben.context.newPage();
    await plan.goto(link);
    await expect(plan.getByTestId('plan-place')).toHaveText(names[0]);
    await expect(plan.getByText('Agreed after a second look.')).toBeVisible();
    await expect(plan).toHaveTitle(`${names[0]} · ForkVote plan`);
    await expect(plan.getByRole('link', { name: 'Directions' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/dir\//,
    );
    await shot(plan, 'decisions-plan-390');
    expect(await axeProblems(plan), 'the plan page').toEqual([]);
  } finally {
    await Promise.all([host.context.close(), ana.context.close(), ben.context.close()]);
  }
});

test('on desktop: the host picks a rule, the tie is drawn the same for everyone, the plan has a calendar file', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const host = await hostPage(browser, baseURL!, DESKTOP);
  const ana = await guestPage(browser, baseURL!, DESKTOP, host.code, 'Ana');
  const ben = await guestPage(browser, baseURL!, DESKTOP, host.code, 'Ben');
  const everyone = [host.page, ana.page, ben.page];
  try {
    await host.page.locator('label', { hasText: 'Most yes votes' }).click();
    await expect(host.page.getByRole('radio', { name: 'Most yes votes' })).toBeChecked();
    for (const page of [ana.page, ben.page])
      await expect(page.getByTestId('decision-rule')).toHaveText('Most yes votes');
    await shot(host.page, 'decisions-rule-host-1280');
    expect(await axeProblems(host.page), 'the rule choice').toEqual([]);
    await start(host.page, everyone);
    await expect(ana.page.getByTestId('rule-line')).toContainText('Most yes votes');
    const names = await placeNames(host.page);

    // Places 0 and 1 tie with two yes votes each.
    await voteList(host.page, [0, 1]);
    await voteList(ana.page, [0]);
    await voteList(ben.page, [1]);
    for (const page of everyone)
      await expect(page.getByTestId('results-headline')).toHaveText('2 places tied with the most yes votes!');
    await expect(ana.page.getByRole('button', { name: 'Pick one for us' })).toHaveCount(0);
    await host.page.getByRole('button', { name: 'Pick one for us' }).click();

    const picked: string[] = [];
    for (const page of everyone) {
      const heading = page.getByTestId('pick').getByRole('heading', { name: /^Picked for you: / });
      await expect(heading).toContainText('Picked for you: ');
      picked.push((await heading.textContent())!.replace('Picked for you: ', '').trim());
    }
    expect(new Set(picked).size).toBe(1);
    expect([names[0], names[1]]).toContain(picked[0]);
    // Drawn once: nobody is offered a second draw.
    await expect(host.page.getByRole('button', { name: 'Pick one for us' })).toHaveCount(0);
    await host.page.reload();
    await expect(host.page.getByTestId('pick')).toContainText(picked[0]);
    await shot(ana.page, 'decisions-picked-1280');
    expect(await axeProblems(ana.page), 'the drawn pick').toEqual([]);

    await ana.page.getByTestId('pick').getByRole('button', { name: 'Share the plan' }).click();
    const links = ana.page.getByTestId('plan-links');
    await expect(links).toBeVisible();
    const calendar = await links.getByRole('link', { name: 'Add to calendar' }).getAttribute('href');
    const ics = await ana.context.request.get(calendar!);
    expect(ics.headers()['content-type']).toMatch(/^text\/calendar/);
    expect(await ics.text()).toContain(`SUMMARY:${picked[0].replace(/([,;])/g, '\\$1')}`);
    const planHref = await links.getByRole('link', { name: 'Open the plan' }).getAttribute('href');
    const stranger = await browser.newContext({ baseURL, ...DESKTOP });
    try {
      const plan = await stranger.newPage();
      await plan.goto(planHref!);
      await expect(plan.getByTestId('plan-place')).toHaveText(picked[0]);
      await expect(plan.getByText('Picked by a fair draw among the favourites.')).toBeVisible();
      await expect(plan.getByText(/Hana|Ana|Ben/)).toHaveCount(0);
      await shot(plan, 'decisions-plan-1280');
      await plan.goto('/plan/AAAAAAAAAAAAAAAAAAAAAA');
      await expect(plan.getByRole('alert')).toHaveText('This plan does not exist.');
    } finally {
      await stranger.close();
    }
  } finally {
    await Promise.all([host.context.close(), ana.context.close(), ben.context.close()]);
  }
});
