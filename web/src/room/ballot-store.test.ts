import { beforeEach, describe, expect, it } from 'vitest';
import { forgetBallots, keepBallot, readBallot } from './ballot-store';

describe('the ballot kept on the device', () => {
  beforeEach(() => localStorage.clear());

  it('keeps choices per room and batch, and the ballot being sent with its key', () => {
    keepBallot('ABC123', 0, { choices: { a: 'up', b: 'down' } });
    keepBallot('ABC123', 1, { choices: { c: 'up' } });
    expect(readBallot('ABC123', 0)).toEqual({ choices: { a: 'up', b: 'down' }, sending: null });
    expect(readBallot('XYZ789', 0)).toEqual({ choices: {}, sending: null });

    const ballot = { key: 'k-1', votes: [{ placeId: 'a', voteType: 'up' as const }] };
    keepBallot('ABC123', 0, { sending: ballot });
    expect(readBallot('ABC123', 0)).toEqual({ choices: { a: 'up', b: 'down' }, sending: ballot });
  });

  it('forgets every other batch, or everything once out of the room', () => {
    keepBallot('ABC123', 0, { choices: { a: 'up' } });
    keepBallot('ABC123', 1, { choices: { b: 'up' } });
    localStorage.setItem('forkvote:room', '{}');
    forgetBallots('ABC123', 1);
    expect(readBallot('ABC123', 0).choices).toEqual({});
    expect(readBallot('ABC123', 1).choices).toEqual({ b: 'up' });
    forgetBallots();
    expect(readBallot('ABC123', 1).choices).toEqual({});
    expect(localStorage.getItem('forkvote:room')).toBe('{}');
  });

  it('reads a damaged entry as no ballot', () => {
    localStorage.setItem('forkvote:ballot:ABC123:0', '{not json');
    expect(readBallot('ABC123', 0)).toEqual({ choices: {}, sending: null });
  });
});
