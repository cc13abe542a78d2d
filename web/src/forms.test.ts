import { describe, expect, it } from 'vitest';
import { planFromQuery } from './pages/auth/register-page';
import { normalizeRoomId, roomIdProblem } from './pages/room/join-create-pages';
import { reconnectDelay, RECONNECT } from './room/event-stream';

describe('join form: waiting room ID (SPEC §5)', () => {
  it('asks for an ID when empty and for a valid one when malformed', () => {
    expect(roomIdProblem('')).toBe('Please enter a waiting room ID.');
    expect(roomIdProblem('   ')).toBe('Please enter a waiting room ID.');
    expect(roomIdProblem('ABC12')).toBe('Please enter a valid waiting room ID.');
    expect(roomIdProblem('ABC-12')).toBe('Please enter a valid waiting room ID.');
  });

  it('accepts 6 letters or digits, trimmed', () => {
    expect(roomIdProblem(' ab12CD ')).toBeNull();
  });

  it('holds the field to 6 characters only after trimming it', () => {
    expect(normalizeRoomId(' zz99zz ')).toBe('ZZ99ZZ');
    expect(normalizeRoomId('abc1234')).toBe('ABC123');
    expect(normalizeRoomId(undefined)).toBe('');
  });
});

describe('register form: ?plan=', () => {
  it('keeps a known plan and treats anything else as monthly', () => {
    expect(planFromQuery('yearly')).toBe('yearly');
    expect(planFromQuery('lifetime')).toBe('lifetime');
    expect(planFromQuery('weekly')).toBe('monthly');
    expect(planFromQuery(null)).toBe('monthly');
  });
});

describe('event stream reconnects (SPEC §9)', () => {
  it('waits 1000 ms doubling each attempt, capped at 30000 ms, at most 5 times', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6].map((attempt) => reconnectDelay(attempt, 0, middle))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(RECONNECT.attempts).toBe(5);
  });

  it('spreads each wait by ±20% and never waits less than the server asked', () => {
    expect(reconnectDelay(0, 0, () => 0)).toBe(800);
    expect(reconnectDelay(0, 0, () => 1)).toBe(1200);
    expect(reconnectDelay(0, 4000, () => 0.5)).toBe(4000);
    expect(reconnectDelay(3, 4000, () => 0.5)).toBe(8000);
  });
});
