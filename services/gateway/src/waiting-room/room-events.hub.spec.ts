import type { Response } from 'express';
import type Redis from 'ioredis';
import { GatewayConfig } from '../gateway.config';
import { ShutdownState } from '../health/shutdown-state';
import { compareEventIds, RoomEventsHub } from './room-events.hub';

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
    const res = {
      written,
      ended: false,
      writeHead: () => res,
      write: (text: string) => written.push(text) > 0,
      end: () => {
        res.ended = true;
      },
      on: () => res,
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
    await hub.attach(first as unknown as Response, member, undefined);
    expect(first.ended).toBe(true);
    expect(first.written.join('')).not.toContain('SUBSCRIBED_TO_SSE');

    refuse = false;
    const second = fakeResponse();
    await hub.attach(second as unknown as Response, { ...member, userId: 'u2' }, undefined);
    expect(second.ended).toBe(false);
    expect(second.written.join('')).toContain('event: SUBSCRIBED_TO_SSE');
    expect(asked).toEqual(['fv:room-events:{room-1}', 'fv:room-events:{room-1}']);
  });
});
