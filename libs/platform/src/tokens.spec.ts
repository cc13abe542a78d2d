import { TokenKeys, TokenKind } from './tokens';

const KINDS: TokenKind[] = ['session', 'room-member', 'room-host', 'login-device'];

describe('TokenKeys', () => {
  const keys = new TokenKeys('a-secret-of-at-least-thirty-two-bytes!!');

  it('verifies each kind only as itself', () => {
    for (const signed of KINDS) {
      const token = keys.sign(signed, { sub: 'someone' }, 60);
      for (const asKind of KINDS) {
        expect({ signed, asKind, ok: keys.verify(asKind, token) !== null }).toEqual({
          signed,
          asKind,
          ok: signed === asKind,
        });
      }
    }
  });

  it('accepts the previous secret during a rotation, and nothing signed with any other', () => {
    const before = new TokenKeys('the-secret-before-the-rotation-32-bytes');
    const during = new TokenKeys(
      'the-secret-after-the-rotation-is-32-bytes',
      'the-secret-before-the-rotation-32-bytes',
    );
    const stranger = new TokenKeys('someone-elses-secret-that-is-32-bytes-long');
    expect(during.verify('session', before.sign('session', { sub: 'a' }, 60))).toMatchObject({ sub: 'a' });
    expect(during.verify('session', during.sign('session', { sub: 'b' }, 60))).toMatchObject({ sub: 'b' });
    expect(during.verify('session', stranger.sign('session', { sub: 'c' }, 60))).toBeNull();
    expect(before.verify('session', during.sign('session', { sub: 'd' }, 60))).toBeNull();
  });

  it('answers null, never throws, for garbage, expiry and a missing token', () => {
    expect(keys.verify('session', undefined)).toBeNull();
    expect(keys.verify('session', 'not.a.jwt')).toBeNull();
    expect(keys.verify('session', keys.sign('session', { sub: 'x' }, -10))).toBeNull();
  });
});
