// @ts-check
/**
 * Values the system tests, the Playwright tests and the benches share. CommonJS, like stack.js, so plain
 * node (the benches) and Playwright's config read it without a build; fixtures.d.ts types it.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** A valid start payload: restaurants within 5 miles of midtown Manhattan, by popularity. */
const START_SEARCH = {
  latitude: 40.7484,
  longitude: -73.9967,
  radiusInMeters: 8047,
  includedTypes: ['restaurant'],
  excludedTypes: [],
  maxResultCount: 20,
  rankPreference: 'popularity',
};

/** Debian's Chromium, never a downloaded browser. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/**
 * How every test and bench starts it: as root, without a GPU, and without the background connections this
 * machine's closed network refuses (they slow every start).
 */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Every route a visitor may open without an account or a room (SPEC §2), and one that does not exist. */
const PUBLIC_ROUTES = [
  '/',
  '/join-session',
  '/places',
  '/how-it-works',
  '/pricing',
  '/login',
  '/register',
  '/forgot-password',
  '/about',
  '/contact',
  '/terms',
  '/privacy',
  '/help',
  '/feedback',
  '/payment/success',
  '/payment/cancel',
  '/no-such-page',
];

/**
 * A self-signed certificate (P-256) for https://127.0.0.1, made with openssl and valid for a day: for a
 * local server a test or bench speaks TLS with (a push service, an HTTP/2 front), whose clients are told
 * to trust it.
 */
function selfSignedCertificate() {
  const dir = mkdtempSync(join(tmpdir(), 'fv-tls-'));
  try {
    // prettier-ignore
    const made = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ]);
    if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { START_SEARCH, CHROMIUM_PATH, CHROMIUM_FLAGS, PUBLIC_ROUTES, selfSignedCertificate };
