import type { Response } from 'express';
import type Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { ShutdownState } from '../health/shutdown-state';
import { ROOM_EVENTS } from '@forkvote/contracts';
import { parseRoomEvent } from '@forkvote/room-events';
import { HEARTBEAT_MS, HEARTBEAT_SLICES } from './heartbeats';
import { RoomEventsHub } from './room-events.hub';
import { compareEventIds } from './stream-replay';

describe('compareEventIds', () => {
  it('orders stream ids by time, then by sequence, as numbers rather than text', () => {
    expect(compareEventIds('1700000000000-0', '1700000000001-0')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-10', '1700000000000-9')).toBeGreaterThan(0);
    expect(compareEventIds('999-0', '1000-0')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-3', '1700000000000-3')).toBe(0);
  });
});

/** A hub whose room subscriptions run on a stand-in for the Redis subscriber connection. */
function hubOn(redis: object, subscriber: { ssubscribe: (channel: string) => Promise<unknown> }) {
  const hub = new RoomEventsHub(
    { REDIS_PREFIX: 'fv' } as GatewayConfig,
    redis as unknown as Redis,
    { draining: false } as ShutdownState,
  );
  const internals = hub as unknown as {
    subscriptions: { listen(subscriber: object): void };
    heartbeats: { tick(): void; sizes: number[] };
    deliver(event: object): void;
  };
  internals.subscriptions.listen({
    on: () => undefined,
    sunsubscribe: () => Promise.resolve(1),
    quit: () => Promise.resolve('OK'),
    ...subscriber,
  });
  return {
    hub,
    beat: () => internals.heartbeats.tick(),
    slices: () => internals.heartbeats.sizes,
    /** An event as it arrives on the room's channel. */
    deliver: (message: string) => internals.deliver(parseRoomEvent(message)!),
  };
}

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
    const { hub } = hubOn({ sismember: async () => 1 }, subscriber);
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
      sismember: async () => 1,
      // The room's log holds the event; its live copy reaches the hub only after the replay was read.
      xrange: async () => [['1700000000000-0', ['e', ROOM_EVENTS.userJoined, 'd', JSON.stringify(joined)]]],
    };
    const { hub, deliver: arrives } = hubOn(redis, { ssubscribe: () => Promise.resolve(1) });
    const res = fakeResponse();
    const member = { roomId: 'room-1', code: 'ABCDEF', userId: 'u1', userName: 'Ula' };
    expect(await hub.attach(res as unknown as Response, member, '0-0', async () => true)).toBe(true);
    const deliver = (id: string) =>
      arrives(`room-1\n${id}\n${ROOM_EVENTS.userJoined}\n${JSON.stringify(joined)}`);
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
    const { hub, beat, deliver } = hubOn(
      { sismember: async () => 1 },
      { ssubscribe: () => Promise.resolve(1) },
    );
    const beatRound = () => {
      for (let i = 0; i < HEARTBEAT_SLICES; i++) beat();
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
    deliver(`busy\n${Date.now()}-0\n${ROOM_EVENTS.nudge}\n{}`);
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
    const { hub, beat, slices } = hubOn(
      { sismember: async () => 1 },
      { ssubscribe: () => Promise.resolve(1) },
    );
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
    beat();
    // The first slice holds the first room made, and each slice after it every HEARTBEAT_SLICES-th room.
    expect(beats().filter((n) => n === 1)).toHaveLength(3);
    for (let i = 1; i < HEARTBEAT_SLICES; i++) beat();
    expect(beats()).toEqual(streams.map(() => 1));

    // A room whose last stream closed leaves its slice (nothing keeps it), and the others beat on.
    expect(slices()[0]).toBe(3);
    streams[0].close();
    expect(slices()[0]).toBe(2);
    beat();
    expect(beats()[0]).toBe(1);
    expect(beats()[HEARTBEAT_SLICES]).toBe(2);
  });

  it('sends no heartbeat to a stream still opening, and ends an opening stream as a stream', async () => {
    let admit: (member: boolean) => void = () => undefined;
    const { hub, beat } = hubOn({ sismember: async () => 0 }, { ssubscribe: () => Promise.resolve(1) });
    const beatRound = () => {
      for (let i = 0; i < HEARTBEAT_SLICES; i++) beat();
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
      sismember: async () => 1,
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
    /** A hub whose member set in Redis lists `listed`, and whose rooms service answers `inRooms`. */
    function hubWithMemberSet(listed: string[], inRooms: string[] = []) {
      const lookups: string[] = [];
      const redis = {
        sismember: (_key: string, userId: string) => {
          lookups.push(userId);
          return Promise.resolve(listed.includes(userId) ? 1 : 0);
        },
      };
      const { hub, deliver } = hubOn(redis, { ssubscribe: () => Promise.resolve(1) });
      const asked: string[] = [];
      const open = async (userId: string) => {
        const res = fakeResponse();
        const opened = await hub.attach(
          res as unknown as Response,
          { roomId: 'room-1', code: 'ABCDEF', userId, userName: userId },
          undefined,
          async () => {
            asked.push(userId);
            return inRooms.includes(userId);
          },
        );
        return { opened, written: res.written.join(''), res };
      };
      const event = (name: string, data: object) =>
        deliver(`room-1\n${Date.now()}-0\n${name}\n${JSON.stringify(data)}`);
      return { open, event, lookups, asked };
    }

    it('admits a stream when the room’s member set in Redis lists the user, without asking rooms', async () => {
      const { open, lookups, asked } = hubWithMemberSet(['u1', 'u2']);
      expect((await open('u1')).opened).toBe(true);
      expect((await open('u2')).opened).toBe(true);
      expect(lookups).toEqual(['u1', 'u2']);
      expect(asked).toEqual([]);
    });

    it('asks rooms only when the set does not list the user, and refuses with nothing written', async () => {
      // u3 joined a moment ago: the set does not list them yet, rooms does.
      const { open, asked } = hubWithMemberSet(['u1'], ['u3']);
      expect((await open('u3')).opened).toBe(true);
      expect(await open('u4')).toMatchObject({ opened: false, written: '' });
      expect(asked).toEqual(['u3', 'u4']);
    });

    it('ends the streams of a member who left, and every stream of a closed room', async () => {
      const { open, event } = hubWithMemberSet(['u1', 'u2', 'u3']);
      const [u1, u2, u3] = [await open('u1'), await open('u2'), await open('u3')];
      event(ROOM_EVENTS.userLeft, { userId: 'u2', userName: 'Ugo' });
      expect(u2.res.ended).toBe(true);
      expect(u2.res.written.join('')).toContain('event: USER_LEFT');
      expect([u1.res.ended, u3.res.ended]).toEqual([false, false]);
      event(ROOM_EVENTS.userLeft, { userId: 'u1', userName: 'Ula', roomClosed: true });
      expect([u1.res.ended, u3.res.ended]).toEqual([true, true]);
    });
  });
});
