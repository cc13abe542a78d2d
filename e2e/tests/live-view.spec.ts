import { APIRequestContext, Browser, BrowserContext, expect, Page, test } from '@playwright/test';
import { START_SEARCH } from '@forkvote/testing/src/fixtures';
import { freePort } from '@forkvote/testing/src/stack';
import net from 'node:net';
import { registerByApi, shot, uniqueEmail } from './helpers';

/**
 * A TCP proxy in front of the gateway whose connections a test can cut: every open socket is destroyed and
 * new ones are refused until `restore()`, as a phone losing its network would see it. (`setOffline` alone
 * leaves an open event stream running.)
 */
async function socketCutter(target: URL) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      cut = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      cut = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface Place {
  id: string;
}

/** The host, through the API: creates a room, starts it, votes. */
async function apiHost(context: BrowserContext) {
  const api: APIRequestContext = context.request;
  const email = uniqueEmail('livehost');
  await registerByApi(context, 'Hana Host', email);
  const login = await api.post('/api/v1/auth/login', {
    data: { email, password: 'secret12', rememberMe: false },
  });
  expect(login.status()).toBe(200);
  const me = await (await api.post('/api/v1/auth/verify-token')).json();
  const created = await (
    await api.post('/api/v1/waiting-room/create', { data: { userId: me.userId, userName: 'Hana' } })
  ).json();
  const code: string = created.waitingRoom.waitingRoomId;
  const userId: string = created.userId;
  let places: Place[] = [];
  return {
    code,
    async start() {
      const answer = await api.post('/api/v1/waiting-room/start', {
        headers: { Authorization: `Bearer ${created.token}` },
        data: START_SEARCH,
      });
      expect(answer.status()).toBe(200);
      places = (await answer.json()).places;
    },
    async voteNo(batch = 0) {
      const votes = places.slice(batch * 5, batch * 5 + 5).map((p) => ({ placeId: p.id, voteType: 'down' }));
      const answer = await api.patch('/api/v1/waiting-room/vote', {
        data: { waitingRoomId: code, userId, votes },
      });
      expect(answer.status()).toBe(200);
    },
  };
}

async function joinThroughUi(page: Page, code: string) {
  await page.goto('/join-session');
  await page.getByLabel('Your Name').fill('Gus');
  await page.getByLabel('Waiting Room ID').fill(code);
  await page.getByRole('button', { name: 'Join Session' }).click();
  await expect(page).toHaveURL(/\/waiting-room$/);
}

async function voteNoThroughUi(page: Page) {
  const cards = page.getByTestId('place-card');
  await expect(cards).toHaveCount(5);
  for (let i = 0; i < 5; i++) await cards.nth(i).getByText('No', { exact: true }).click();
  await page.getByRole('button', { name: 'Submit Votes' }).click();
  await expect(page.getByText('Voting Progress')).toBeVisible();
}

/**
 * A host (through the API, straight to the gateway) and a guest in Chromium who joined through the UI and
 * whose every connection goes through a socket cutter; both in a new room, the guest's stream connected.
 */
async function roomThroughCutter(
  browser: Browser,
  baseURL: string,
  run: (room: {
    host: Awaited<ReturnType<typeof apiHost>>;
    guest: Page;
    guestContext: BrowserContext;
    proxy: Awaited<ReturnType<typeof socketCutter>>;
  }) => Promise<void>,
  viewport = { width: 1280, height: 900 },
) {
  const proxy = await socketCutter(new URL(baseURL));
  const hostContext = await browser.newContext({ baseURL });
  const guestContext = await browser.newContext({ baseURL: proxy.url, viewport });
  try {
    const host = await apiHost(hostContext);
    const guest = await guestContext.newPage();
    await joinThroughUi(guest, host.code);
    await expect(guest.getByTestId('connection-status')).toHaveText(CONNECTED);
    await run({ host, guest, guestContext, proxy });
  } finally {
    await hostContext.close();
    await guestContext.close();
    await proxy.close();
  }
}

const CONNECTED = 'Connected to Waiting Room events';

test.describe('a live view that always converges', () => {
  test('a stream cut before the first event and after it: the guest reaches the same screen as the host', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await roomThroughCutter(browser, baseURL!, async ({ host, guest, proxy }) => {
      // Cut 1: the guest has seen no event with an id yet. The room starts while the guest is cut off.
      proxy.cut();
      await expect(guest.getByTestId('connection-status')).not.toHaveText(CONNECTED);
      await host.start();
      proxy.restore();
      // Within the backoff (1 s, then 2 s): resynced from a snapshot, on the voting screen.
      await expect(guest).toHaveURL(/\/voting$/, { timeout: 10_000 });
      await expect(guest.getByTestId('connection-status')).toHaveText(CONNECTED);

      // Cut 2: the guest has events now. The guest votes, is cut off, and the host's vote closes the batch.
      await voteNoThroughUi(guest);
      proxy.cut();
      await host.voteNo();
      await guest.waitForTimeout(1500);
      proxy.restore();
      await expect(guest).toHaveURL(/\/results$/, { timeout: 10_000 });
      await expect(guest.getByTestId('results-headline')).toHaveText('No unanimous winner');
      await shot(guest, 'live-view-recovered');
    });
  });

  test('after a 40 s drop the guest gave up retrying, and recovers by itself when the network is back', async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await roomThroughCutter(
      browser,
      baseURL!,
      async ({ host, guest, guestContext, proxy }) => {
        proxy.cut();
        const cutAt = Date.now();
        await guestContext.setOffline(true);
        await host.start();
        // 1 + 2 + 4 + 8 + 16 s of backoff (±20%): the fifth retry fails within 38 s; then a Reconnect button.
        await expect(guest.getByRole('button', { name: 'Reconnect' })).toBeVisible({ timeout: 45_000 });
        await shot(guest, 'live-view-gave-up-390');
        await guest.waitForTimeout(Math.max(0, 40_000 - (Date.now() - cutAt)));
        proxy.restore();
        await guestContext.setOffline(false);
        await expect(guest).toHaveURL(/\/voting$/, { timeout: 10_000 });
        await expect(guest.getByTestId('connection-status')).toHaveText(CONNECTED);
      },
      { width: 390, height: 844 },
    );
  });
});
