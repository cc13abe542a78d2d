import { compareEventIds } from './room-events.hub';

describe('compareEventIds', () => {
  it('orders stream ids by time, then by sequence, as numbers rather than text', () => {
    expect(compareEventIds('1700000000000-0', '1700000000001-0')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-10', '1700000000000-9')).toBeGreaterThan(0);
    expect(compareEventIds('999-0', '1000-0')).toBeLessThan(0);
    expect(compareEventIds('1700000000000-3', '1700000000000-3')).toBe(0);
  });
});
