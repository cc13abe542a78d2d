import { ROOM_ID_PATTERN } from '@forkvote/contracts';
import { newRoomCode } from './membership.service';

describe('newRoomCode', () => {
  it('makes 6 upper-case letters or digits, valid as a waiting room ID', () => {
    for (let i = 0; i < 500; i++) {
      const code = newRoomCode();
      expect(code).toMatch(/^[A-Z0-9]{6}$/);
      expect(ROOM_ID_PATTERN.test(code)).toBe(true);
    }
  });

  it('spreads over the alphabet (no two of 500 codes alike is overwhelmingly likely)', () => {
    const codes = new Set(Array.from({ length: 500 }, newRoomCode));
    expect(codes.size).toBe(500);
  });
});
