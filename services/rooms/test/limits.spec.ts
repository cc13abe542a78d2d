import {
  applyLimits,
  DIETS,
  fitsLimits,
  leftOutText,
  LIMITS_MESSAGES,
  Place,
  ROOM_EVENTS,
} from '@forkvote/contracts';
import {
  EventStreamClient,
  Participant,
  signUp,
  START_SEARCH,
  startTestStack,
  TestStack,
  until,
} from '@forkvote/testing';

/**
 * Private limits through the gateway against the real stack: each member's own, answered to nobody else;
 * places that fail anyone's left out of the batches at the start, with only a count told; an account's
 * limits saved with its profile and brought into its next room.
 */
describe('private limits', () => {
  let stack: TestStack;
  const streams: EventStreamClient[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
  });

  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** The same search as the start makes, without limits, three pages of it: all the start could read. */
  async function unlimitedSearch(): Promise<Place[]> {
    const viewer = new Participant(stack.url);
    const places: Place[] = [];
    for (const offset of [0, 20, 40]) {
      const res = await viewer.get(
        `/api/v1/places/nearby?latitude=${START_SEARCH.latitude}&longitude=${START_SEARCH.longitude}` +
          `&radius=5&unit=miles&includedTypes=restaurant&maxResultCount=20&offset=${offset}`,
      );
      expect(res.status).toBe(200);
      places.push(...res.body.places);
    }
    return places;
  }

  it('leaves out the places that fail anyone’s limits and tells only how many', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const vera = new Participant(stack.url);
    const paul = new Participant(stack.url);
    const room = await host.openRoom('Hana');
    const joinedVera = await vera.patch('/api/v1/waiting-room/join', {
      waitingRoomId: room.code,
      userName: 'Vera',
    });
    const joinedPaul = await paul.patch('/api/v1/waiting-room/join', {
      waitingRoomId: room.code,
      userName: 'Paul',
    });
    expect(joinedVera.status).toBe(200);

    // Nothing set yet: no limits.
    const none = await vera.get(`/api/v1/waiting-room/limits?waitingRoomId=${room.code.toLowerCase()}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual({
      limits: { diet: null, maxPriceLevel: null, maxDistanceMeters: null },
      fromProfile: false,
    });

    const setVera = await vera.put('/api/v1/waiting-room/limits', {
      waitingRoomId: room.code,
      diet: 'vegan',
    });
    expect(setVera.status).toBe(200);
    expect(setVera.body.limits).toEqual({ diet: 'vegan', maxPriceLevel: null, maxDistanceMeters: null });
    // A second change keeps the first.
    const setPaul1 = await paul.put('/api/v1/waiting-room/limits', {
      waitingRoomId: room.code,
      maxPriceLevel: 'PRICE_LEVEL_MODERATE',
    });
    expect(setPaul1.status).toBe(200);
    const setPaul = await paul.put('/api/v1/waiting-room/limits', {
      waitingRoomId: room.code,
      maxDistanceMeters: 3219,
    });
    expect(setPaul.body.limits).toEqual({
      diet: null,
      maxPriceLevel: 'PRICE_LEVEL_MODERATE',
      maxDistanceMeters: 3219,
    });

    // Each sees only their own; the snapshot and the room's events carry nobody's.
    expect((await vera.get(`/api/v1/waiting-room/limits?waitingRoomId=${room.code}`)).body.limits.diet).toBe(
      'vegan',
    );
    expect(
      (await paul.get(`/api/v1/waiting-room/limits?waitingRoomId=${room.code}`)).body.limits.diet,
    ).toBeNull();

    // Refused with one message each.
    for (const [body, message] of [
      [{ diet: 'paleo' }, LIMITS_MESSAGES.unknownDiet],
      [{ maxPriceLevel: 'CHEAP' }, LIMITS_MESSAGES.unknownPrice],
      [{ maxDistanceMeters: 5 }, LIMITS_MESSAGES.badDistance],
      [{ maxDistanceMeters: 'far' }, LIMITS_MESSAGES.badDistance],
      [{ maxDistanceMeters: 10.5 }, LIMITS_MESSAGES.badDistance],
    ] as const) {
      const res = await vera.put('/api/v1/waiting-room/limits', { waitingRoomId: room.code, ...body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    // Nobody outside the room, and no one on another member's behalf: the cookie says who.
    const outsider = new Participant(stack.url);
    expect(
      (await outsider.put('/api/v1/waiting-room/limits', { waitingRoomId: room.code, diet: 'vegan' })).status,
    ).toBe(403);

    const stream = await vera.events(room.code, joinedVera.body.userId);
    streams.push(stream);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${room.token}`,
    });
    expect(started.status).toBe(200);

    const all = await unlimitedSearch();
    const vegan = { diet: 'vegan' as const, maxPriceLevel: null, maxDistanceMeters: null };
    const cheapNear = { diet: null, maxPriceLevel: 'PRICE_LEVEL_MODERATE' as const, maxDistanceMeters: 3219 };
    // The first 20 that fit both, read on through the search's next pages as far as needed.
    const { kept: expected, leftOut } = applyLimits(all, [vegan, cheapNear], 20);
    expect(expected.every((p) => fitsLimits(p, vegan) && fitsLimits(p, cheapNear))).toBe(true);
    expect(leftOut).toBeGreaterThan(0);
    expect(started.body.places.map((p: Place) => p.id)).toEqual(expected.map((p) => p.id));
    expect(started.body.leftOutByLimits).toBe(leftOut);
    // A place known not to be vegan, one too dear and one too far were all in the search.
    expect(all.some((p) => p.diet?.vegan === false)).toBe(true);
    for (const place of started.body.places as Place[]) {
      expect(place.diet?.vegan).not.toBe(false);
      expect(place.distanceMeters!).toBeLessThanOrEqual(3219);
    }

    const [heard] = await stream.waitFor(ROOM_EVENTS.started);
    expect((heard.data as { leftOutByLimits?: number }).leftOutByLimits).toBe(leftOut);
    expect(JSON.stringify(heard.data)).not.toMatch(/maxPriceLevel|maxDistanceMeters|"diet":"vegan"/);
    const snapshot = await paul.get('/api/v1/waiting-room/current');
    expect(snapshot.body.leftOutByLimits).toBe(leftOut);
    expect(JSON.stringify(snapshot.body)).not.toMatch(/maxPriceLevel|maxDistanceMeters|"limits"/);
    expect(leftOutText(leftOut)).toBe(`${leftOut} places left out by private limits`);

    // After the start they cannot change.
    const late = await vera.put('/api/v1/waiting-room/limits', { waitingRoomId: room.code, diet: null });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(LIMITS_MESSAGES.notWaiting);
    expect(joinedPaul.status).toBe(200);
  });

  it('saves an account’s limits with its profile and brings them into its next room', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Ines Host')).cookie);
    const member = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Veg Member')).cookie);
    const first = await host.openRoom('Ines');
    await member.patch('/api/v1/waiting-room/join', { waitingRoomId: first.code, userName: 'Veg' });
    const set = await member.put('/api/v1/waiting-room/limits', {
      waitingRoomId: first.code,
      diet: 'vegetarian',
      maxDistanceMeters: 5000,
    });
    expect(set.status).toBe(200);
    // Saved to the profile after the answer (auth is not waited for): there a moment later.
    const me = await until(
      () => member.get('/api/v1/me'),
      (res) => res.body.limits?.diet === 'vegetarian',
    );
    expect(me.body.limits).toEqual({ diet: 'vegetarian', maxPriceLevel: null, maxDistanceMeters: 5000 });
    await host.patch('/api/v1/waiting-room/leave', { waitingRoomId: first.code, userId: first.hostId });

    // The next room: the profile's limits, before the member sets any there, and they apply at the start.
    const second = await host.openRoom('Ines');
    await member.patch('/api/v1/waiting-room/join', { waitingRoomId: second.code, userName: 'Veg' });
    const got = await member.get(`/api/v1/waiting-room/limits?waitingRoomId=${second.code}`);
    expect(got.body).toEqual({
      limits: { diet: 'vegetarian', maxPriceLevel: null, maxDistanceMeters: 5000 },
      fromProfile: true,
    });
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${second.token}`,
    });
    expect(started.status).toBe(200);
    expect(started.body.leftOutByLimits).toBeGreaterThan(0);
    for (const place of started.body.places as Place[]) {
      expect(place.diet?.vegetarian).not.toBe(false);
      expect(place.distanceMeters!).toBeLessThanOrEqual(5000);
    }

    // The profile changes them too; null clears one.
    const cleared = await member.patch('/api/v1/me', { limits: { diet: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.limits).toEqual({ diet: null, maxPriceLevel: null, maxDistanceMeters: 5000 });
    const bad = await member.patch('/api/v1/me', { limits: { diet: 'carnivore' } });
    expect(bad.status).toBe(400);
    expect(DIETS).toContain('vegan');
  });

  it('refuses a start whose every place is left out, with a message that names nobody', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Omar Host')).cookie);
    const room = await host.openRoom('Omar');
    await host.put('/api/v1/waiting-room/limits', { waitingRoomId: room.code, maxDistanceMeters: 100 });
    const started = await host.post(
      '/api/v1/waiting-room/start',
      { ...START_SEARCH, includedTypes: ['vegan_restaurant'], maxResultCount: 3 },
      { Authorization: `Bearer ${room.token}` },
    );
    // Three vegan places within 100 m of the search's centre are (almost) never found in the catalogue.
    expect(started.status).toBe(404);
    expect(started.body.message).toBe(LIMITS_MESSAGES.everyPlaceLeftOut);
    // The room still waits: the host can loosen the limits and start again.
    await host.put('/api/v1/waiting-room/limits', { waitingRoomId: room.code, maxDistanceMeters: null });
    const again = await host.post(
      '/api/v1/waiting-room/start',
      { ...START_SEARCH, includedTypes: ['vegan_restaurant'], maxResultCount: 3 },
      { Authorization: `Bearer ${room.token}` },
    );
    expect(again.status).toBe(200);
  });

  it('starts with the limits set in the room while auth is down, and answers members at once', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Uma Host')).cookie);
    const guest = new Participant(stack.url);
    const room = await host.openRoom('Uma');
    await guest.patch('/api/v1/waiting-room/join', { waitingRoomId: room.code, userName: 'Gil' });
    await stack.stopOne('auth');
    try {
      const set = await guest.put('/api/v1/waiting-room/limits', { waitingRoomId: room.code, diet: 'vegan' });
      expect(set.status).toBe(200);
      // The host is an account: their change is kept in the room even though auth cannot save it now.
      const hostSet = await host.put('/api/v1/waiting-room/limits', {
        waitingRoomId: room.code,
        maxDistanceMeters: 5000,
      });
      expect(hostSet.status).toBe(200);
      expect(hostSet.body.limits.maxDistanceMeters).toBe(5000);
      const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, room.hostAuth);
      expect(started.status).toBe(200);
      expect(started.body.leftOutByLimits).toBeGreaterThan(0);
      for (const place of started.body.places as Place[]) {
        expect(place.diet?.vegan).not.toBe(false);
        expect(place.distanceMeters!).toBeLessThanOrEqual(5000);
      }
    } finally {
      stack.startOne('auth');
      await stack.waitHealthy(30_000);
    }
  });
});
