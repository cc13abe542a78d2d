import { freePort, startTestStack, TestStack } from '@forkvote/testing';
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';

/**
 * Places through the gateway, once per provider: Google Places (New) and Overpass imitated by local
 * servers that answer in their real formats (errors included), and the demo catalogue as the fallback.
 * The answers are recorded shapes (test/recorded/), with the fields the cards show: rating, price, open
 * now, photos with their credits; opening_hours, website and cuisine from OpenStreetMap.
 */
const recorded = (name: string) => JSON.parse(readFileSync(join(__dirname, 'recorded', name), 'utf8'));
const GOOGLE_NEARBY = recorded('google-search-nearby.json');
const OVERPASS = recorded('overpass-interpreter.json');
/** The start of a JPEG (SOI and a JFIF APP0 segment): what the photo media endpoint ends in. */
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
type Named = { displayName: { text: string } };
const names = (places: Named[]) => places.map((p) => p.displayName.text);
function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

interface FakeProvider {
  server: Server;
  port: number;
  requests: { url: string; headers: IncomingMessage['headers']; body: string }[];
  mode: 'ok' | 'error' | 'slow';
}

type FakeAnswer = { status: number; body: unknown; headers?: Record<string, string> };

async function fakeProvider(
  answer: (fake: FakeProvider, body: string, url: string) => FakeAnswer,
): Promise<FakeProvider> {
  const fake = { requests: [], mode: 'ok' } as unknown as FakeProvider;
  fake.server = createServer(async (req, res) => {
    const body = await readBody(req);
    fake.requests.push({ url: req.url ?? '', headers: req.headers, body });
    if (fake.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 3000));
    const { status, body: out, headers } = answer(fake, body, req.url ?? '');
    if (res.destroyed) return;
    const raw = Buffer.isBuffer(out);
    res.writeHead(status, { 'Content-Type': raw ? 'image/jpeg' : 'application/json', ...headers });
    res.end(raw ? out : JSON.stringify(out));
  });
  fake.port = await freePort();
  await new Promise<void>((resolve) => fake.server.listen(fake.port, '127.0.0.1', resolve));
  return fake;
}

const NYC = { latitude: 40.7484, longitude: -73.9967 };
const nearby = (stack: TestStack, query: Record<string, string | number>) =>
  request(stack.url)
    .get('/api/v1/places/nearby')
    .query({ latitude: NYC.latitude, longitude: NYC.longitude, ...query });

describe('places with Google Places (New)', () => {
  let stack: TestStack;
  let google: FakeProvider;

  beforeAll(async () => {
    google = await fakeProvider((fake, _body, url) => {
      // The photo media endpoint answers a redirect to the image on Google's content host, as Google's does.
      if (url.startsWith('/v1/places/ChIJ1/photos/')) {
        return { status: 302, body: {}, headers: { Location: '/lh3/thai-garden.jpg' } };
      }
      if (url.startsWith('/lh3/')) return { status: 200, body: JPEG };
      if (url.startsWith('/v1/places/ChIJ2/photos/')) {
        return {
          status: 403,
          body: { error: { code: 403, message: 'Photo not allowed.', status: 'PERMISSION_DENIED' } },
        };
      }
      return fake.mode === 'error'
        ? {
            status: 400,
            body: { error: { code: 400, message: 'Invalid included type.', status: 'INVALID_ARGUMENT' } },
          }
        : { status: 200, body: GOOGLE_NEARBY };
    });
    stack = await startTestStack({
      PLACES_PROVIDER: 'google',
      GOOGLE_PLACES_API_KEY: 'test-key',
      GOOGLE_PLACES_URL: `http://127.0.0.1:${google.port}/v1/places:searchNearby`,
      PLACES_TIMEOUT_MS: '1000',
    });
  });

  afterAll(async () => {
    await stack?.stop();
    google?.server.close();
  });

  it('sends the search in Google’s format and answers places in the SPEC’s shape', async () => {
    const res = await nearby(stack, {
      radius: 5,
      unit: 'miles',
      includedTypes: 'thai_restaurant,sushi_restaurant',
      excludedTypes: 'bar',
      rankPreference: 'Distance',
      maxResultCount: 20,
    }).expect(200);
    expect(res.body).toMatchObject({ provider: 'google', demo: false });
    expect(res.body.places[0]).toMatchObject({
      id: 'ChIJ1',
      displayName: { text: 'Thai Garden' },
      formattedAddress: '1 W 34th St, New York, NY 10001, USA',
      shortFormattedAddress: '1 W 34th St, New York',
      googleMapsUri: 'https://maps.google.com/?cid=1',
      rating: 4.6,
      userRatingCount: 1234,
      priceLevel: 'PRICE_LEVEL_MODERATE',
    });
    expect(res.body.places[0].distanceMeters).toBeGreaterThan(800);
    expect(res.body.places[0].distanceMeters).toBeLessThan(1000);

    const sent = google.requests.at(-1)!;
    expect(sent.headers['x-goog-api-key']).toBe('test-key');
    expect(sent.headers['x-goog-fieldmask']).toContain('places.displayName');
    expect(sent.headers['x-goog-fieldmask']).toContain('places.googleMapsUri');
    expect(JSON.parse(sent.body)).toEqual({
      includedTypes: ['thai_restaurant', 'sushi_restaurant'],
      excludedTypes: ['bar'],
      maxResultCount: 20,
      rankPreference: 'DISTANCE',
      locationRestriction: { circle: { center: NYC, radius: 8046.7 } },
    });
  });

  it('asks Google for rating, price, open now and photos, and keeps its key off every photo address', async () => {
    const res = await nearby(stack, { radius: 2, rankPreference: 'popularity' }).expect(200);
    const mask = google.requests.find((r) => r.url.includes('searchNearby'))!.headers['x-goog-fieldmask'];
    for (const field of [
      'places.rating',
      'places.userRatingCount',
      'places.priceLevel',
      'places.currentOpeningHours.openNow',
      'places.photos',
      'places.servesVegetarianFood',
    ]) {
      expect(String(mask).split(',')).toContain(field);
    }
    const [thai, sushi, pizza] = res.body.places;
    expect(thai).toMatchObject({
      rating: 4.6,
      userRatingCount: 1234,
      priceLevel: 'PRICE_LEVEL_MODERATE',
      currentOpeningHours: { openNow: true },
      photo: {
        uri: '/api/v1/places/photo?ref=places%2FChIJ1%2Fphotos%2FAUc7tXWa_Thai-Garden-1',
        attributions: [{ displayName: 'Dana Lee', uri: 'https://maps.google.com/maps/contrib/110011' }],
      },
    });
    expect(thai).not.toHaveProperty('photos');
    // servesVegetarianFood, for private limits; Google says nothing of vegan food.
    expect(thai.diet).toEqual({ vegetarian: true });
    expect(sushi.diet).toEqual({ vegetarian: false, vegan: false });
    expect(pizza).not.toHaveProperty('diet');
    expect(thai).not.toHaveProperty('servesVegetarianFood');
    // Google's scheme-relative credit links become https.
    expect(sushi.photo.attributions).toEqual([
      { displayName: 'Sam Ortiz', uri: 'https://maps.google.com/maps/contrib/330033' },
    ]);
    expect(pizza).not.toHaveProperty('photo');
    expect(JSON.stringify(res.body)).not.toContain('test-key');
  });

  it('filters open now and price on Google’s answer, which its nearby search cannot do', async () => {
    const open = await nearby(stack, { radius: 2, openNow: 'true' }).expect(200);
    expect(names(open.body.places)).toEqual(['Thai Garden']);
    const cheap = await nearby(stack, { radius: 2, priceLevels: 'PRICE_LEVEL_MODERATE' }).expect(200);
    // Slice Corner has no price on Google: kept, as a place of unknown price.
    expect(names(cheap.body.places)).toEqual(['Thai Garden', 'Slice Corner']);
    const sent = JSON.parse(google.requests.filter((r) => r.url.includes('searchNearby')).at(-1)!.body);
    expect(sent).not.toHaveProperty('openNow');
    expect(sent).not.toHaveProperty('priceLevels');
  });

  it('pages a search with offset and nextOffset', async () => {
    const first = await nearby(stack, { radius: 2.5, maxResultCount: 2 }).expect(200);
    expect(names(first.body.places)).toEqual(['Thai Garden', 'Sushi Seki']);
    expect(first.body.nextOffset).toBe(2);
    const second = await nearby(stack, { radius: 2.5, maxResultCount: 2, offset: 2 }).expect(200);
    expect(names(second.body.places)).toEqual(['Slice Corner']);
    expect(second.body.nextOffset).toBeNull();
  });

  it('serves a photo through the gateway with the key sent from the server only, then from the cache', async () => {
    const ref = 'places/ChIJ1/photos/AUc7tXWa_Thai-Garden-1';
    const before = google.requests.length;
    const photo = await request(stack.url).get('/api/v1/places/photo').query({ ref }).expect(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect(photo.headers['cache-control']).toBe('public, max-age=86400');
    expect(photo.headers['content-security-policy']).toContain("default-src 'none'");
    expect(Buffer.from(photo.body).equals(JPEG)).toBe(true);
    const media = google.requests.slice(before).find((r) => r.url.includes('/media'))!;
    expect(media.url).toBe(`/v1/${ref}/media?maxWidthPx=800`);
    expect(media.headers['x-goog-api-key']).toBe('test-key');

    const asked = google.requests.length;
    await request(stack.url).get('/api/v1/places/photo').query({ ref }).expect(200);
    expect(google.requests.length).toBe(asked);
  });

  it.each([
    ['places/ChIJ2/photos/AUc7tXWb_Sushi-1', 404, 'Photo not found'],
    ['https://evil.example/x.jpg', 400, 'Unknown photo'],
    ['places/ChIJ1/photos/../../secrets', 400, 'Unknown photo'],
    ['demo/spaceship_restaurant/1', 404, 'Photo not found'],
  ])('answers a photo %s with %i', async (ref, status, message) => {
    const res = await request(stack.url).get('/api/v1/places/photo').query({ ref }).expect(status);
    expect(res.body.message).toBe(message);
  });

  it('serves a repeated search from the cache without asking Google again', async () => {
    const query = { radius: 3, unit: 'km', rankPreference: 'popularity' };
    await nearby(stack, query).expect(200);
    const before = google.requests.length;
    const again = await nearby(stack, query).expect(200);
    expect(again.body.provider).toBe('google');
    expect(google.requests.length).toBe(before);
  });

  it('answers 502 with Google’s reason when Google refuses', async () => {
    google.mode = 'error';
    try {
      const res = await nearby(stack, { radius: 7 }).expect(502);
      expect(res.body.message).toBe(
        'Places are unavailable right now (Google Places refused the search: Invalid included type). Please try again.',
      );
    } finally {
      google.mode = 'ok';
    }
  });

  it('answers 503 within the timeout when Google is slow', async () => {
    google.mode = 'slow';
    const started = Date.now();
    try {
      const res = await nearby(stack, { radius: 9 }).expect(503);
      expect(res.body.message).toContain('Google Places did not answer within 1000 ms');
      expect(Date.now() - started).toBeLessThan(2900);
    } finally {
      google.mode = 'ok';
    }
  });

  it('geocodes zip codes from the offline table', async () => {
    const res = await request(stack.url).get('/api/v1/places/geocode').query({ zip: '10001' }).expect(200);
    expect(res.body).toEqual({
      zipcode: '10001',
      lat: 40.7484,
      lon: -73.9967,
      city: 'New York',
      state: 'NY',
    });
    const missing = await request(stack.url)
      .get('/api/v1/places/geocode')
      .query({ zip: '00000' })
      .expect(404);
    expect(missing.body.message).toBe('Could not find location for this zip code.');
    const bad = await request(stack.url).get('/api/v1/places/geocode').query({ zip: '1234a' }).expect(400);
    expect(bad.body.message).toBe('Please enter a valid 5-digit zip code.');
    await request(stack.url).get('/api/v1/places/geocode').expect(400);
  });

  it('serves the type catalogue and filter categories', async () => {
    const res = await request(stack.url).get('/api/v1/places/types').expect(200);
    expect(res.body.all).toBe('restaurant');
    expect(res.body.types).toHaveLength(63);
    expect(res.body.types).toContainEqual({
      type: 'fine_dining_restaurant',
      label: 'Fine Dining Restaurant',
      compact: 'finediningrestaurant',
    });
    expect(res.body.categories[0].name).toBe('Cuisine Type');
  });

  it.each([
    [{ radius: 51, unit: 'miles' }, 'Please choose a search radius between 1 and 50 miles (80 km).'],
    [{ radius: 81, unit: 'km' }, 'Please choose a search radius between 1 and 50 miles (80 km).'],
    [{ radius: 0 }, 'Please choose a search radius between 1 and 50 miles (80 km).'],
    [{ radius: 5, includedTypes: 'spaceship' }, 'Unknown restaurant type'],
    [{ radius: 5, rankPreference: 'rating' }, 'Sort by must be Popularity or Distance'],
    [{ radius: 5, maxResultCount: 21 }, 'maxResultCount must be a whole number from 1 to 20'],
    [{ radius: 5, openNow: 'sometimes' }, 'openNow must be true or false'],
    [{ radius: 5, priceLevels: 'PRICE_LEVEL_CHEAP' }, 'Unknown price level'],
    [{ radius: 5, offset: -1 }, 'offset must be a whole number from 0 to 100'],
    [{ radius: 5, offset: 'x' }, 'offset must be a whole number from 0 to 100'],
  ])('answers 400 for %j', async (query, message) => {
    const res = await nearby(stack, query as Record<string, string | number>).expect(400);
    expect(res.body.message).toBe(message);
  });

  it('answers 400 without coordinates', async () => {
    const res = await request(stack.url).get('/api/v1/places/nearby').query({ radius: 5 }).expect(400);
    expect(res.body.message).toBe('Please provide location information');
  });
});

describe('places with OpenStreetMap (Overpass)', () => {
  let stack: TestStack;
  let overpass: FakeProvider;

  beforeAll(async () => {
    overpass = await fakeProvider((fake) =>
      fake.mode === 'error'
        ? { status: 429, body: { remark: 'rate limited' } }
        : { status: 200, body: OVERPASS },
    );
    stack = await startTestStack({
      PLACES_PROVIDER: 'osm',
      OVERPASS_URL: `http://127.0.0.1:${overpass.port}/api/interpreter`,
      PLACES_TIMEOUT_MS: '1000',
    });
  });

  afterAll(async () => {
    await stack?.stop();
    overpass?.server.close();
  });

  it('maps OSM tags to place types, approximates popularity and sorts by distance', async () => {
    const popular = await nearby(stack, { radius: 2, excludedTypes: 'bar' }).expect(200);
    expect(popular.body).toMatchObject({ provider: 'osm', demo: false });
    expect(names(popular.body.places)).toEqual([
      'Famous Sushi',
      'Near Pizza',
      'Closed Diner',
      'Odd Hours Cafe',
    ]);
    expect(popular.body.places[1]).toMatchObject({
      id: 'osm:node/1',
      types: ['restaurant', 'pizza_restaurant', 'italian_restaurant'],
      shortFormattedAddress: '5 W 31st St, New York',
    });
    const query = decodeURIComponent(overpass.requests.at(-1)!.body.replace(/\+/g, ' '));
    expect(query).toContain('around:3219,40.7484,-73.9967');

    const byDistance = await nearby(stack, { radius: 2, rankPreference: 'distance' }).expect(200);
    expect(names(byDistance.body.places)).toEqual([
      'Corner Bar',
      'Near Pizza',
      'Famous Sushi',
      'Closed Diner',
      'Odd Hours Cafe',
    ]);
    const sushiOnly = await nearby(stack, { radius: 2, includedTypes: 'sushi_restaurant' }).expect(200);
    expect(sushiOnly.body.places).toHaveLength(1);
  });

  it('reads opening_hours (open now), website and cuisine', async () => {
    const res = await nearby(stack, { radius: 2, rankPreference: 'distance' }).expect(200);
    const byName = Object.fromEntries(res.body.places.map((p: Named) => [p.displayName.text, p]));
    expect(byName['Near Pizza']).toMatchObject({
      openingHours: '24/7',
      currentOpeningHours: { openNow: true },
      cuisines: ['Pizza', 'Italian'],
      diet: { vegetarian: true, vegan: false },
    });
    // diet:vegetarian=no says no vegan food either; no diet tags, nothing known.
    expect(byName['Closed Diner'].diet).toEqual({ vegetarian: false, vegan: false });
    expect(byName['Famous Sushi']).not.toHaveProperty('diet');
    expect(byName['Famous Sushi']).toMatchObject({
      websiteUri: 'https://famous-sushi.example',
      cuisines: ['Sushi', 'Noodle bar'],
      currentOpeningHours: { openNow: expect.any(Boolean) },
    });
    expect(byName['Closed Diner'].currentOpeningHours).toEqual({ openNow: false });
    // Not a web address: not a link.
    expect(byName['Closed Diner']).not.toHaveProperty('websiteUri');
    // Hours nobody can read, and no hours at all: unknown, not closed.
    expect(byName['Odd Hours Cafe'].currentOpeningHours).toEqual({});
    expect(byName['Corner Bar']).not.toHaveProperty('currentOpeningHours');
    // OSM has no rating, price or photo.
    for (const place of res.body.places) {
      expect(place).not.toHaveProperty('rating');
      expect(place).not.toHaveProperty('priceLevel');
      expect(place).not.toHaveProperty('photo');
    }

    const open = await nearby(stack, { radius: 2, rankPreference: 'distance', openNow: 'true' }).expect(200);
    // Only places known to be open: the bar with no hours and the unreadable ones are left out.
    expect(names(open.body.places)).not.toContain('Corner Bar');
    expect(names(open.body.places)).not.toContain('Closed Diner');
    expect(names(open.body.places)).not.toContain('Odd Hours Cafe');
    expect(names(open.body.places)).toContain('Near Pizza');
    // A price filter cannot narrow OSM, which has no prices: every place stays.
    const priced = await nearby(stack, { radius: 2, priceLevels: 'PRICE_LEVEL_INEXPENSIVE' }).expect(200);
    expect(priced.body.places).toHaveLength(5);
  });

  it('answers 503 when Overpass rate-limits us', async () => {
    overpass.mode = 'error';
    try {
      const res = await nearby(stack, { radius: 4 }).expect(503);
      expect(res.body.message).toContain('OpenStreetMap is rate limiting us');
    } finally {
      overpass.mode = 'ok';
    }
  });
});

describe('places in auto mode with no provider reachable', () => {
  let stack: TestStack;

  beforeAll(async () => {
    const closedPort = await freePort();
    stack = await startTestStack({
      PLACES_PROVIDER: 'auto',
      OVERPASS_URL: `http://127.0.0.1:${closedPort}/api/interpreter`,
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('falls back to the deterministic demo catalogue, flagged demo', async () => {
    const first = await nearby(stack, { radius: 5 }).expect(200);
    expect(first.body).toMatchObject({ provider: 'demo', demo: true });
    expect(first.body.places).toHaveLength(20);
    for (const place of first.body.places) {
      expect(place).toMatchObject({
        id: expect.stringMatching(/^demo:/),
        displayName: { text: expect.any(String) },
        formattedAddress: expect.any(String),
        shortFormattedAddress: expect.any(String),
        googleMapsUri: expect.stringMatching(/^https:\/\/www\.google\.com\/maps/),
        types: expect.any(Array),
      });
      expect(place.distanceMeters).toBeLessThanOrEqual(8047);
    }
    const counts = first.body.places.map((p: { userRatingCount: number }) => p.userRatingCount);
    expect(counts).toEqual([...counts].sort((a: number, b: number) => b - a));

    const sameSpot = await nearby(stack, {
      radius: 5,
      maxResultCount: 20,
      rankPreference: 'popularity',
    }).expect(200);
    expect(sameSpot.body.places.map((p: { id: string }) => p.id)).toEqual(
      first.body.places.map((p: { id: string }) => p.id),
    );

    const byDistance = await nearby(stack, { radius: 5, rankPreference: 'distance' }).expect(200);
    const distances = byDistance.body.places.map((p: { distanceMeters: number }) => p.distanceMeters);
    expect(distances).toEqual([...distances].sort((a: number, b: number) => a - b));
  });

  it('gives demo places believable ratings, prices, hours and a photo the gateway serves', async () => {
    const { body } = await nearby(stack, { radius: 5, maxResultCount: 20 }).expect(200);
    for (const place of body.places) {
      expect(place.rating).toBeGreaterThanOrEqual(3.4);
      expect(place.rating).toBeLessThanOrEqual(4.9);
      expect(typeof place.currentOpeningHours.openNow).toBe('boolean');
      expect(place.photo.uri).toMatch(/^\/api\/v1\/places\/photo\?ref=demo%2F[a-z_]+%2F\d+$/);
    }
    expect(body.places.some((p: { priceLevel?: string }) => p.priceLevel)).toBe(true);
    const photo = await fetch(`${stack.url}${body.places[0].photo.uri}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = await photo.text();
    expect(svg).toMatch(/^<svg /);
    expect(svg).not.toMatch(/<script|href=/i);

    const open = await nearby(stack, { radius: 5, openNow: 'true' }).expect(200);
    for (const place of open.body.places) expect(place.currentOpeningHours.openNow).toBe(true);
    const cheap = await nearby(stack, { radius: 5, priceLevels: 'PRICE_LEVEL_INEXPENSIVE' }).expect(200);
    for (const place of cheap.body.places) {
      expect([undefined, 'PRICE_LEVEL_INEXPENSIVE', 'PRICE_LEVEL_FREE']).toContain(place.priceLevel);
    }
  });
});
