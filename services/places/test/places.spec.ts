import { freePort, startTestStack, TestStack } from '@forkvote/testing';
import { createServer, IncomingMessage, Server } from 'node:http';
import request from 'supertest';

/**
 * Places through the gateway, once per provider: Google Places (New) and Overpass imitated by local
 * servers that answer in their real formats (errors included), and the demo catalogue as the fallback.
 */
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
  requests: { headers: IncomingMessage['headers']; body: string }[];
  mode: 'ok' | 'error' | 'slow';
}

async function fakeProvider(
  answer: (fake: FakeProvider, body: string) => { status: number; body: unknown },
): Promise<FakeProvider> {
  const fake = { requests: [], mode: 'ok' } as unknown as FakeProvider;
  fake.server = createServer(async (req, res) => {
    const body = await readBody(req);
    fake.requests.push({ headers: req.headers, body });
    if (fake.mode === 'slow') await new Promise((resolve) => setTimeout(resolve, 3000));
    const { status, body: out } = answer(fake, body);
    if (res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(out));
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
    google = await fakeProvider((fake) =>
      fake.mode === 'error'
        ? {
            status: 400,
            body: { error: { code: 400, message: 'Invalid included type.', status: 'INVALID_ARGUMENT' } },
          }
        : {
            status: 200,
            body: {
              places: [
                {
                  id: 'ChIJ1',
                  types: ['thai_restaurant', 'restaurant', 'food', 'point_of_interest', 'establishment'],
                  primaryType: 'thai_restaurant',
                  formattedAddress: '1 W 34th St, New York, NY 10001, USA',
                  shortFormattedAddress: '1 W 34th St, New York',
                  location: { latitude: 40.7486, longitude: -73.9862 },
                  rating: 4.6,
                  userRatingCount: 1234,
                  priceLevel: 'PRICE_LEVEL_MODERATE',
                  googleMapsUri: 'https://maps.google.com/?cid=1',
                  displayName: { text: 'Thai Garden', languageCode: 'en' },
                },
              ],
            },
          },
    );
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
        : {
            status: 200,
            body: {
              version: 0.6,
              generator: 'Overpass API',
              elements: [
                {
                  type: 'node',
                  id: 1,
                  lat: 40.749,
                  lon: -73.996,
                  tags: {
                    amenity: 'restaurant',
                    name: 'Near Pizza',
                    cuisine: 'pizza;italian',
                    'addr:housenumber': '5',
                    'addr:street': 'W 31st St',
                    'addr:city': 'New York',
                  },
                },
                {
                  type: 'way',
                  id: 2,
                  center: { lat: 40.752, lon: -73.99 },
                  tags: {
                    amenity: 'restaurant',
                    name: 'Famous Sushi',
                    cuisine: 'sushi',
                    website: 'https://x',
                    opening_hours: 'Mo-Su 11:00-22:00',
                    wikidata: 'Q1',
                    phone: '1',
                  },
                },
                {
                  type: 'node',
                  id: 3,
                  lat: 40.7485,
                  lon: -73.9968,
                  tags: { amenity: 'bar', name: 'Corner Bar' },
                },
                { type: 'node', id: 4, lat: 40.7485, lon: -73.9968, tags: { amenity: 'bench' } },
              ],
            },
          },
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
    expect(popular.body.places.map((p: { displayName: { text: string } }) => p.displayName.text)).toEqual([
      'Famous Sushi',
      'Near Pizza',
    ]);
    expect(popular.body.places[1]).toMatchObject({
      id: 'osm:node/1',
      types: ['restaurant', 'pizza_restaurant', 'italian_restaurant'],
      shortFormattedAddress: '5 W 31st St, New York',
    });
    const query = decodeURIComponent(overpass.requests.at(-1)!.body.replace(/\+/g, ' '));
    expect(query).toContain('around:3219,40.7484,-73.9967');

    const byDistance = await nearby(stack, { radius: 2, rankPreference: 'distance' }).expect(200);
    expect(byDistance.body.places.map((p: { displayName: { text: string } }) => p.displayName.text)).toEqual([
      'Corner Bar',
      'Near Pizza',
      'Famous Sushi',
    ]);
    const sushiOnly = await nearby(stack, { radius: 2, includedTypes: 'sushi_restaurant' }).expect(200);
    expect(sushiOnly.body.places).toHaveLength(1);
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
});
