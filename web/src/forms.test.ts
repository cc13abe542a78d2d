import { describe, expect, it } from 'vitest';
import { planFromQuery } from './pages/auth/register-page';
import { roomIdProblem } from './pages/room/join-create-pages';
import { reconnectDelay, RECONNECT } from './room/room-context';

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
    expect([0, 1, 2, 3, 4, 5, 6].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(RECONNECT.attempts).toBe(5);
  });
});
