// @ts-check
/**
 * `npm run bench:lighthouse`: Lighthouse 12 (its default mobile preset: a Moto G Power, slow 4G at
 * 150 ms / 1.6 Mbps, 4× CPU slowdown, simulated) on Debian's Chromium against a throw-away stack, for every
 * public route and the room pages (a guest in a room that is waiting, voting, or at its results). Prints,
 * per route, the performance score, FCP, LCP, blocking time, layout shift and the JavaScript the first load
 * transfers, then the JavaScript a guest's whole journey transfers (join → waiting room → voting →
 * results, driven in the browser), and checks the targets. Pages are loaded as a phone reaches them in
 * production, through TLS and HTTP/2 at the ingress (a local front, tls-front.js); `--plain-http` loads
 * them from the gateway directly instead.
 *
 *   --runs N            runs per route (default 3; the median is reported)
 *   --routes A,B        only these routes (default: ROUTES below)
 *   --no-journey        skip the guest journey
 *   --plain-http        HTTP/1.1 without TLS, straight to the gateway (no brotli, six connections)
 *   --web-dist DIR      serve another build of the web app (to measure an older one the same way)
 *   --json              JSON instead of a table
 */
'use strict';
const { chromium } = require('playwright-core');
const { launch } = require('chrome-launcher');
const { call, cookieOf, parseArgs, stackFor, subscribedHost } = require('../lib/harness');
const { freePort } = require('@forkvote/testing/src/stack');
const { startTlsFront } = require('./tls-front');
const {
  CHROMIUM_FLAGS,
  CHROMIUM_PATH,
  PUBLIC_ROUTES,
  START_SEARCH,
} = require('@forkvote/testing/src/fixtures');

const TARGETS = { score: 90, lcpMs: 2500, cls: 0.05, journeyJsKb: 250 };

/** The room pages, each with the stage of the room its guest is in. */
const ROOM_ROUTES = { '/waiting-room': 'waiting', '/voting': 'voting', '/results': 'results' };

/** A host and a room; the host's member cookie and token for the calls a test makes as the host. */
async function openRoom(url) {
  const hostCookie = await subscribedHost(url);
  const created = await call(
    url,
    'POST',
    '/api/v1/waiting-room/create',
    { userName: 'Hana' },
    { Cookie: hostCookie },
  );
  const room = await created.json();
  return {
    code: room.waitingRoom.waitingRoomId,
    token: room.token,
    hostCookie,
    host: { userId: room.userId, cookie: cookieOf(created, 'fv_room') },
  };
}

const start = async (url, room) =>
  (
    await call(url, 'POST', '/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${room.token}`,
      Cookie: room.hostCookie,
    })
  ).json();

const voteYes = (url, code, member, places) =>
  call(
    url,
    'PATCH',
    '/api/v1/waiting-room/vote',
    {
      waitingRoomId: code,
      userId: member.userId,
      votes: places.slice(0, 5).map((p) => ({ placeId: p.id, voteType: 'up' })),
    },
    { Cookie: member.cookie },
  );

/** A guest in a room at `stage`, and what the guest's browser holds: its cookie and stored room state. */
async function roomGuest(url, stage) {
  const room = await openRoom(url);
  const joined = await call(url, 'PATCH', '/api/v1/waiting-room/join', {
    waitingRoomId: room.code,
    userName: 'Gus',
  });
  const guest = await joined.json();
  const memberCookie = cookieOf(joined, 'fv_room');
  const places = stage === 'waiting' ? [] : (await start(url, room)).places;
  let ballots = null;
  if (stage === 'results') {
    await voteYes(url, room.code, room.host, places);
    await voteYes(url, room.code, { userId: guest.userId, cookie: memberCookie }, places);
    // The app keeps the batch's results it was sent, as it does every other part of the room's state.
    ballots = (
      await (
        await call(url, 'GET', '/api/v1/waiting-room/current', undefined, { Cookie: memberCookie })
      ).json()
    ).ballots;
  }
  // What the web app keeps in localStorage after a join; on load it asks the server for the rest.
  const state = {
    room: {
      token: null,
      userId: guest.userId,
      userName: guest.userName,
      isHost: false,
      waitingRoom: guest.waitingRoom,
    },
    voting: {
      currentState: stage,
      batchIndex: 0,
      places,
      voted: stage === 'results',
      usersVoted: [],
      ballots,
    },
  };
  return { memberCookie, state };
}

/** Puts the guest's cookie and room state into the browser without loading any of the app's files. */
async function seedGuest(port, url, guest) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    const [name, value] = guest.memberCookie.split('=');
    await context.addCookies([{ name, value, url }]);
    const page = await context.newPage();
    // Lighthouse keeps storage for this run, and with it the cache: empty the cache, so the load is cold.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    await page.goto(`${url}/api/v1/health`);
    await page.evaluate((state) => localStorage.setItem('forkvote:room', JSON.stringify(state)), guest.state);
    await page.close();
  } finally {
    await browser.close().catch(() => undefined);
  }
}

async function audit(lighthouse, port, pageUrl, keepStorage) {
  const result = await lighthouse(pageUrl, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // Keeps the seeded room (seedGuest emptied the HTTP cache just before).
    disableStorageReset: keepStorage,
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${pageUrl}`);
  const { lhr } = result;
  // A run Lighthouse could not complete (no paint seen, a page that never settled) is reported and retried.
  if (lhr.runtimeError) throw new Error(`${pageUrl}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const requests = /** @type {{ items: { resourceType: string, transferSize: number }[] }} */ (
    lhr.audits['network-requests'].details
  ).items;
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcpMs: Math.round(lhr.audits['first-contentful-paint'].numericValue ?? 0),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue ?? 0),
    tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue ?? 0),
    cls: Math.round((lhr.audits['cumulative-layout-shift'].numericValue ?? 0) * 1000) / 1000,
    jsFiles: scripts.length,
    jsKb: Math.round(scripts.reduce((sum, r) => sum + r.transferSize, 0) / 1024),
    finalUrl: lhr.finalDisplayedUrl,
  };
}

/**
 * A guest's whole journey in a fresh browser context, as a person takes it: the invite link, their name,
 * the waiting room, the vote (the host starts and votes by the API), the results. Answers the compressed
 * JavaScript it transferred, in KB, and how many files.
 */
async function guestJourney(port, site, apiUrl) {
  const room = await openRoom(apiUrl);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width: 390, height: 844 },
  });
  let bytes = 0;
  let files = 0;
  try {
    const page = await context.newPage();
    page.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'script') return;
      files += 1;
      bytes += (await request.sizes()).responseBodySize;
    });
    await page.goto(`${site}/join-session?waitingRoomId=${room.code}`);
    await page.getByLabel('Your Name').fill('Gus');
    await page.getByRole('button', { name: 'Join Session' }).click();
    await page.waitForURL(/\/waiting-room$/);
    await page.getByTestId('room-code').waitFor();
    const { places } = await start(apiUrl, room);
    await page.waitForURL(/\/voting$/, { timeout: 15_000 });
    const cards = page.getByTestId('place-card');
    await cards.first().waitFor();
    for (let i = 0; i < 5; i++) await cards.nth(i).getByText('Yes', { exact: true }).click();
    await page.getByRole('button', { name: 'Submit Votes' }).click();
    await page.getByText('Votes submitted successfully!').waitFor();
    await voteYes(apiUrl, room.code, room.host, places);
    await page.waitForURL(/\/results$/, { timeout: 15_000 });
    await page.getByTestId('results-headline').waitFor();
    // The room's event stream stays open, so the network is never idle: a moment for late chunks instead.
    await page.waitForTimeout(2000);
    return { jsKb: Math.round(bytes / 1024), jsFiles: files };
  } finally {
    await context.close();
    await browser.close().catch(() => undefined);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const args = parseArgs();
  const runs = Number(args.runs ?? 3);
  const plain = Boolean(args['plain-http']);
  // The address the browser uses is the product's origin: the gateway accepts state changes from it.
  const frontPort = await freePort();
  const stack = await stackFor(args, {
    ...(plain ? {} : { PUBLIC_URL: `https://127.0.0.1:${frontPort}` }),
    ...(args['web-dist'] ? { WEB_DIST: String(args['web-dist']) } : {}),
  });
  const front = plain ? null : await startTlsFront(stack.url, frontPort);
  const site = front ? front.url : stack.url;
  const { default: lighthouse } = await import('lighthouse');
  const chrome = await launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--ignore-certificate-errors', ...CHROMIUM_FLAGS],
  });
  try {
    const rows = [];
    const routes = args.routes
      ? String(args.routes).split(',')
      : [...PUBLIC_ROUTES, ...Object.keys(ROOM_ROUTES)];
    for (const route of routes) {
      const samples = [];
      for (let attempt = 0; samples.length < runs; attempt++) {
        const stage = ROOM_ROUTES[/** @type {keyof typeof ROOM_ROUTES} */ (route)];
        if (stage) await seedGuest(chrome.port, site, await roomGuest(stack.url, stage));
        try {
          samples.push(await audit(lighthouse, chrome.port, `${site}${route}`, Boolean(stage)));
        } catch (err) {
          if (attempt >= runs * 2) throw err;
          console.error(`retrying: ${err instanceof Error ? err.message : err}`);
        }
      }
      const pick = (key) => median(samples.map((s) => s[key]));
      rows.push({
        route,
        score: pick('score'),
        fcpMs: pick('fcpMs'),
        lcpMs: pick('lcpMs'),
        tbtMs: pick('tbtMs'),
        cls: pick('cls'),
        jsKb: pick('jsKb'),
        jsFiles: pick('jsFiles'),
        runs: samples.map((s) => `${s.score}/${s.lcpMs}`).join(' '),
      });
    }
    const journey = args['no-journey'] ? null : await guestJourney(chrome.port, site, stack.url);
    const checks = {
      ...Object.fromEntries(
        rows.map((r) => [
          `${r.route}: score ≥ ${TARGETS.score}, LCP ≤ ${TARGETS.lcpMs} ms, CLS ≤ ${TARGETS.cls}`,
          r.score >= TARGETS.score && r.lcpMs <= TARGETS.lcpMs && r.cls <= TARGETS.cls,
        ]),
      ),
      ...(journey && {
        [`guest journey JS ≤ ${TARGETS.journeyJsKb} KB compressed (${journey.jsKb} KB in ${journey.jsFiles} files)`]:
          journey.jsKb <= TARGETS.journeyJsKb,
      }),
    };
    if (args.json) console.log(JSON.stringify({ runs, rows, journey, checks }, null, 2));
    else {
      console.log(
        `Lighthouse ${require('lighthouse/package.json').version}, mobile preset, ${plain ? 'plain HTTP/1.1' : 'TLS + HTTP/2'}, median of ${runs} run(s) per route`,
      );
      console.table(rows);
      for (const [check, met] of Object.entries(checks))
        console.log(`${met ? 'met    ' : 'NOT met'}  ${check}`);
    }
  } finally {
    await chrome.kill();
    await front?.close();
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
