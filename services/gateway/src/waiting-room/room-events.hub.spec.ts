import type { Response } from 'express';
import type Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { ShutdownState } from '../health/shutdown-state';
import { ROOM_EVENTS } from '@forkvote/contracts';
import { compareEventIds, HEARTBEAT_MS, HEARTBEAT_SLICES, RoomEventsHub } from './room-events.hub';

describe('compareEventIds', () => {
  it('orders stream ids by time, then by sequence, as numbers rather than text', () => {
    expect(compareEventIds('1700000000000-0', '1700000000001-0')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-10', '1700000000000-9')).toBeGreaterThan(0);
    expect(compareEventIds('999-0', '1000-0')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-3', '1700000000000-3')).toBe(0);
  });
});

describe('RoomEventsHub subscriptions', () => {
  /** Just enough of an Express response for a stream: what was written, and whether it ended. */
  function fakeResponse() {
    const written: string[] = [];
    const closeListeners: (() => void)[] = [];
    const res = {
      written,
      ended: false,
      // As Node's: the first write sends default headers, and headers go out once.
      headersSent: false,
      writeHead: () => {
        if (res.headersSent) throw new Error('Cannot write headers after they are sent to the client');
        res.headersSent = true;
        return res;
      },
      write: (text: string) => {
        res.headersSent = true;
        return written.push(text) > 0;
      },
      end: (text?: string) => {
        if (text) res.write(text);
        res.ended = true;
      },
      get writableEnded() {
        return res.ended;
      },
      on: (event: string, listener: () => void) => {
        if (event === 'close') closeListeners.push(listener);
        return res;
      },
      /** The browser goes away. */
      close: () => closeListeners.forEach((listener) => listener()),
      removeHeader: () => undefined,
      req: {},
    };
    return res;
  }

  it('ends the streams of a room whose subscription failed, and asks again for the next one', async () => {
    const asked: string[] = [];
    let refuse = true;
    const subscriber = {
      ssubscribe: (channel: string) => {
        asked.push(channel);
        return refuse ? Promise.reject(new Error('Redis is away')) : Promise.resolve(1);
      },
    };
    const hub = new RoomEventsHub(
      { REDIS_PREFIX: 'fv' } as GatewayConfig,
      {} as Redis,
      { draining: false } as ShutdownState,
    );
    (hub as unknown as { subscriber: unknown }).subscriber = subscriber;
    const member = { roomId: 'room-1', code: 'ABCDEF', userId: 'u1', userName: 'Ula' };

    const first = fakeResponse();
    await hub.attach(first as unknown as Response, member, undefined, async () => true);
    expect(first.ended).toBe(true);
    expect(first.written.join('')).not.toContain('SUBSCRIBED_TO_SSE');

    refuse = false;
    const second = fakeResponse();
    await hub.attach(second as unknown as Response, { ...member, userId: 'u2' }, undefined, async () => true);
    expect(second.ended).toBe(false);
    expect(second.written.join('')).toContain('event: SUBSCRIBED_TO_SSE');
    expect(asked).toEqual(['fv:room-events:{room-1}', 'fv:room-events:{room-1}']);
  });

  it('sends an event once to a stream whose replay already held it', async () => {
    const joined = { userId: 'u2', userName: 'Uma' };
    const redis = {
      smembers: async () => ['u1'],
      // The room's log holds the event; its live copy reaches the hub only after the replay was read.
      xrange: async () => [['1700000000000-0', ['e', ROOM_EVENTS.userJoined, 'd', JSON.stringify(joined)]]],
    };
    const hub = new RoomEventsHub(
      { REDIS_PREFIX: 'fv' } as GatewayConfig,
      redis as unknown as Redis,
      { draining: false } as ShutdownState,
    );
    (hub as unknown as { subscriber: unknown }).subscriber = { ssubscribe: () => Promise.resolve(1) };
    const res = fakeResponse();
    const member = { roomId: 'room-1', code: 'ABCDEF', userId: 'u1', userName: 'Ula' };
    expect(await hub.attach(res as unknown as Response, member, '0-0', async () => true)).toBe(true);
    const deliver = (id: string) =>
      (hub as unknown as { deliver(message: string): void }).deliver(
        `room-1\n${id}\n${ROOM_EVENTS.userJoined}\n${JSON.stringify(joined)}`,
      );
    deliver('1700000000000-0');
    deliver('1700000000000-1');
    const ids = res.written.join('').match(/^id: .*$/gm);
    expect(ids).toEqual(['id: 1700000000000-0', 'id: 1700000000000-1']);

    // A Last-Event-ID the log never held (ahead of it) replays nothing and mutes nothing after it.
    redis.xrange = async () => [];
    const ahead = fakeResponse();
    await hub.attach(ahead as unknown as Response, member, '9999999999999-0', async () => true);
    deliver('1700000000000-2');
    expect(ahead.written.join('').match(/^id: .*$/gm)).toEqual(['id: 1700000000000-2']);
  });

  it('sends heartbeats only to the streams of rooms that carried no event since the last beat', async () => {
    const hub = new RoomEventsHub(
      { REDIS_PREFIX: 'fv' } as GatewayConfig,
      { smembers: async () => ['u1', 'u2'] } as unknown as Redis,
      { draining: false } as ShutdownState,
    );
    (hub as unknown as { subscriber: unknown }).subscriber = { ssubscribe: () => Promise.resolve(1) };
    const internals = hub as unknown as { beat(): void; deliver(message: string): void };
    const beatRound = () => {
      for (let i = 0; i < HEARTBEAT_SLICES; i++) internals.beat();
    };
    const busy = fakeResponse();
    const quiet = fakeResponse();
    const member = { code: 'ABCDEF', userId: 'u1', userName: 'Ula' };
    await hub.attach(busy as unknown as Response, { ...member, roomId: 'busy' }, undefined, async () => true);
    await hub.attach(
      quiet as unknown as Response,
      { ...member, roomId: 'quiet' },
      undefined,
      async () => true,
    );
    internals.deliver(`busy\n${Date.now()}-0\n${ROOM_EVENTS.nudge}\n{}`);
    const before = [busy.written.length, quiet.written.length];
    beatRound();
    expect(busy.written.length).toBe(before[0]);
    expect(quiet.written.slice(before[1])).toEqual([':\n\n']);

    // Once the busy room has been quiet for an interval, its streams get the next beat too.
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + HEARTBEAT_MS + 1);
    try {
      beatRound();
    } finally {
      jest.restoreAllMocks();
    }
    expect(busy.written.at(-1)).toBe(':\n\n');
  });

  it('beats a slice of the rooms at a time, and every room once a round', async () => {
    const hub = new RoomEventsHub(
      { REDIS_PREFIX: 'fv' } as GatewayConfig,
      { smembers: async () => ['u1'] } as unknown as Redis,
      { draining: false } as ShutdownState,
    );
    (hub as unknown as { subscriber: unknown }).subscriber = {
      ssubscribe: () => Promise.resolve(1),
      sunsubscribe: () => Promise.resolve(1),
    };
    const internals = hub as unknown as { beat(): void };
    const member = { code: 'ABCDEF', userId: 'u1', userName: 'Ula' };
    const streams = Array.from({ length: 2 * HEARTBEAT_SLICES + 1 }, () => fakeResponse());
    for (const [i, res] of streams.entries()) {
      await hub.attach(
        res as unknown as Response,
        { ...member, roomId: `room-${i}` },
        undefined,
        async () => true,
      );
    }
    const beats = () => streams.map((res) => res.written.filter((text) => text === ':\n\n').length);
    internals.beat();
    // The first slice holds the first room made, and each slice after it every HEARTBEAT_SLICES-th room.
    expect(beats().filter((n) => n === 1)).toHaveLength(3);
    for (let i = 1; i < HEARTBEAT_SLICES; i++) internals.beat();
    expect(beats()).toEqual(streams.map(() => 1));

    // A room whose last stream closed leaves its slice (nothing keeps it), and the others beat on.
    const slices = (hub as unknown as { beatSlices: Set<unknown>[] }).beatSlices;
    expect(slices[0].size).toBe(3);
    streams[0].close();
    expect(slices[0].size).toBe(2);
    internals.beat();
    expect(beats()[0]).toBe(1);
    expect(beats()[HEARTBEAT_SLICES]).toBe(2);
  });

  it('sends no heartbeat to a stream still opening, and ends an opening stream as a stream', async () => {
    let admit: (member: boolean) => void = () => undefined;
    const hub = new RoomEventsHub(
      { REDIS_PREFIX: 'fv' } as GatewayConfig,
      { smembers: async () => [], sismember: async () => 0 } as unknown as Redis,
      { draining: false } as ShutdownState,
    );
    (hub as unknown as { subscriber: unknown }).subscriber = { ssubscribe: () => Promise.resolve(1) };
    const internals = hub as unknown as { beat(): void };
    const beatRound = () => {
      for (let i = 0; i < HEARTBEAT_SLICES; i++) internals.beat();
    };
    const res = fakeResponse();
    const member = { roomId: 'room-1', code: 'ABCDEF', userId: 'u1', userName: 'Ula' };
    // Rooms is slow to answer whether u1 is a member; a heartbeat comes meanwhile.
    const opening = hub.attach(
      res as unknown as Response,
      member,
      undefined,
      () => new Promise((r) => (admit = r)),
    );
    await new Promise((resolve) => setImmediate(resolve));
    beatRound();
    admit(true);
    expect(await opening).toBe(true);
    expect(res.written.join('')).toMatch(/^retry: 1000\n\nevent: SUBSCRIBED_TO_SSE\n/);
    beatRound();
    expect(res.written.at(-1)).toBe(':\n\n');

    // A shutdown while a stream is opening ends it with its headers and a retry.
    const late = fakeResponse();
    const lateOpening = hub.attach(
      late as unknown as Response,
      { ...member, userId: 'u2' },
      undefined,
      () => new Promise((r) => (admit = r)),
    );
    await new Promise((resolve) => setImmediate(resolve));
    hub.closeAll(() => 2000);
    admit(true);
    expect(await lateOpening).toBe(true);
    expect(late.written.join('')).toBe('retry: 2000\n\n');
    expect(late.ended).toBe(true);

    // And one ended during its replay gets nothing written after its end.
    let replay: (entries: unknown[]) => void = () => undefined;
    (hub as unknown as { redis: unknown }).redis = {
      smembers: async () => ['u3'],
      xrange: () => new Promise((resolve) => (replay = resolve)),
    };
    const replaying = fakeResponse();
    const write = replaying.write;
    replaying.write = (text: string) => {
      if (replaying.ended) throw new Error('write after end');
      return write(text);
    };
    const third = hub.attach(
      replaying as unknown as Response,
      { ...member, userId: 'u3' },
      '0-0',
      async () => true,
    );
    await new Promise((resolve) => setImmediate(resolve));
    hub.closeAll(() => 3000);
    replay([]);
    expect(await third).toBe(true);
    expect(replaying.written.join('')).toBe('retry: 3000\n\n');
  });

  describe('membership', () => {
    /** A hub on a subscriber that always subscribes, and a Redis whose member set the test controls. */
    function hubWithMemberSet(listed: () => Promise<string[]>) {
      const lookups: string[] = [];
      const redis = {
        smembers: () => listed(),
        sismember: (_key: string, userId: string) => {
          lookups.push(userId);
          return Promise.resolve(0);
        },
      };
      const hub = new RoomEventsHub(
        { REDIS_PREFIX: 'fv' } as GatewayConfig,
        redis as unknown as Redis,
        { draining: false } as ShutdownState,
      );
      (hub as unknown as { subscriber: unknown }).subscriber = {
        ssubscribe: () => Promise.resolve(1),
        sunsubscribe: () => Promise.resolve(1),
      };
      const asked: string[] = [];
      const open = async (userId: string) => {
        const res = fakeResponse();
        const opened = await hub.attach(
          res as unknown as Response,
          { roomId: 'room-1', code: 'ABCDEF', userId, userName: userId },
          undefined,
          async () => {
            asked.push(userId);
            return false;
          },
        );
        return { opened, written: res.written.join('') };
      };
      const event = (name: string, data: object) =>
        (hub as unknown as { deliver(message: string): void }).deliver(
          `room-1\n${Date.now()}-0\n${name}\n${JSON.stringify(data)}`,
        );
      return { hub, open, event, lookups, asked };
    }

    it('admits a room’s later streams from its member set, kept from the room’s own events', async () => {
      const { open, event, lookups, asked } = hubWithMemberSet(async () => ['u1', 'u2']);
      expect((await open('u1')).opened).toBe(true);
      event(ROOM_EVENTS.userJoined, { userId: 'u3', userName: 'Uma' });
      expect((await open('u3')).opened).toBe(true);
      expect((await open('u2')).opened).toBe(true);
      expect(lookups).toEqual([]);
      expect(asked).toEqual([]);

      // Someone who left is looked up (the set in Redis, then rooms), and refused with nothing written.
      event(ROOM_EVENTS.userLeft, { userId: 'u2', userName: 'Ugo' });
      expect(await open('u2')).toEqual({ opened: false, written: '' });
      expect(lookups).toEqual(['u2']);
      expect(asked).toEqual(['u2']);
      // A closed room has no members left.
      event(ROOM_EVENTS.userLeft, { userId: 'u1', userName: 'Ula', roomClosed: true });
      expect((await open('u3')).opened).toBe(false);
    });

    it('applies what changed while the set was being read on top of what was read', async () => {
      let answer: (ids: string[]) => void = () => undefined;
      const { open, event, lookups } = hubWithMemberSet(
        () => new Promise<string[]>((resolve) => (answer = resolve)),
      );
      const first = open('u1');
      await new Promise((resolve) => setImmediate(resolve));
      // u2 leaves and u3 joins after the subscription, before the read answers (which still lists u2).
      event(ROOM_EVENTS.userLeft, { userId: 'u2', userName: 'Ugo' });
      event(ROOM_EVENTS.userJoined, { userId: 'u3', userName: 'Uma' });
      answer(['u1', 'u2']);
      expect((await first).opened).toBe(true);
      expect((await open('u3')).opened).toBe(true);
      expect(lookups).toEqual([]);
      expect((await open('u2')).opened).toBe(false);
      expect(lookups).toEqual(['u2']);
    });

    it('trusts no kept set once the subscriber’s connection has dropped', async () => {
      const { hub, open, lookups } = hubWithMemberSet(async () => ['u1', 'u2']);
      expect((await open('u1')).opened).toBe(true);
      (hub as unknown as { distrustMembers(): void }).distrustMembers();
      // Events may have been missed: every stream of the room is looked up again.
      expect((await open('u2')).opened).toBe(false);
      expect(lookups).toEqual(['u2']);
    });
  });
});
