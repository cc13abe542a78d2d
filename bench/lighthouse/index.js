// @ts-check
/**
 * `npm run bench:lighthouse`: Lighthouse 12 (its default mobile preset: a Moto G Power, slow 4G at
 * 150 ms / 1.6 Mbps, 4× CPU slowdown, simulated) on Debian's Chromium against a throw-away stack, for
 * `/`, `/join-session` and `/voting` (a guest in a room that is voting). Prints, per route, the
 * performance score, FCP, LCP and the JavaScript the first load transfers, and checks the targets.
 * Pages are loaded as a phone reaches them in production, through TLS and HTTP/2 at the ingress (a local
 * front, tls-front.js); `--plain-http` loads them from the gateway directly instead.
 *
 *   --runs N            runs per route (default 3; the median is reported)
 *   --routes A,B        only these routes (default /,/join-session,/voting)
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
const { CHROMIUM_FLAGS, CHROMIUM_PATH, START_SEARCH } = require('@forkvote/testing/src/fixtures');

const TARGETS = { initialJsKb: 200, lcpMs: 2500, score: 90 };

/** A room of a host and a guest, started, and what the guest's browser holds: its cookie and room state. */
async function votingGuest(url) {
  const hostCookie = await subscribedHost(url);
  const verify = await (
    await call(url, 'POST', '/api/v1/auth/verify-token', {}, { Cookie: hostCookie })
  ).json();
  const created = await call(
    url,
    'POST',
    '/api/v1/waiting-room/create',
    { userId: verify.userId, userName: 'Hana' },
    {
      Cookie: hostCookie,
    },
  );
  const room = await created.json();
  const code = room.waitingRoom.waitingRoomId;
  const joined = await call(url, 'PATCH', '/api/v1/waiting-room/join', {
    waitingRoomId: code,
    userName: 'Gus',
  });
  const guest = await joined.json();
  const started = await call(url, 'POST', '/api/v1/waiting-room/start', START_SEARCH, {
    Authorization: `Bearer ${room.token}`,
    Cookie: hostCookie,
  });
  const memberCookie = cookieOf(joined, 'fv_room');
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
      currentState: 'voting',
      batchIndex: 0,
      // The app keeps the room's places (from the start event) across reloads.
      places: (await started.json()).places,
      voted: false,
      usersVoted: [],
      ballots: null,
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
    jsFiles: scripts.length,
    jsKb: Math.round(scripts.reduce((sum, r) => sum + r.transferSize, 0) / 1024),
    finalUrl: lhr.finalDisplayedUrl,
  };
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
    const routes = args.routes ? String(args.routes).split(',') : ['/', '/join-session', '/voting'];
    for (const route of routes) {
      const samples = [];
      for (let attempt = 0; samples.length < runs; attempt++) {
        const voting = route === '/voting';
        if (voting) await seedGuest(chrome.port, site, await votingGuest(stack.url));
        try {
          samples.push(await audit(lighthouse, chrome.port, `${site}${route}`, voting));
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
        jsKb: pick('jsKb'),
        jsFiles: pick('jsFiles'),
        runs: samples.map((s) => `${s.score}/${s.lcpMs}`).join(' '),
      });
    }
    const join = rows.find((r) => r.route === '/join-session');
    const checks = {
      ...(join && {
        [`initial JS for /join-session ≤ ${TARGETS.initialJsKb} KB compressed`]:
          join.jsKb <= TARGETS.initialJsKb,
      }),
      ...Object.fromEntries(
        rows.map((r) => [
          `${r.route}: LCP ≤ ${TARGETS.lcpMs} ms and score ≥ ${TARGETS.score}`,
          r.lcpMs <= TARGETS.lcpMs && r.score >= TARGETS.score,
        ]),
      ),
    };
    if (args.json) console.log(JSON.stringify({ runs, rows, checks }, null, 2));
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
