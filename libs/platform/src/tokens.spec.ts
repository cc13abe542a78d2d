import { createHmac } from 'node:crypto';
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

  it('answers null, never throws, for a token whose bytes are not ASCII anywhere', () => {
    const token = keys.sign('room-member', { sub: 'x' }, 60);
    const [head, body, signature] = token.split('.');
    for (const bent of [
      `${head}.${body}.${signature.slice(0, -1)}é`,
      `${head}.${body}.${signature.slice(0, -1)}\u00e9`,
      `${head}.${body}.${signature.slice(0, -2)}é`,
      `${head}.${body}.${signature}é`,
      `${head}.${body}é.${signature}`,
      `${head}é.${body}.${signature}`,
      `${head}.${body}.${signature.slice(0, -1)}\ud83c`,
      `${head}.${body}.${Buffer.from(signature, 'latin1').toString('latin1').slice(0, -1)}\xe9`,
    ]) {
      expect(() => keys.verify('room-member', bent)).not.toThrow();
      expect(keys.verify('room-member', bent)).toBeNull();
    }
  });

  it('answers null, never throws, for garbage, expiry and a missing token', () => {
    expect(keys.verify('session', undefined)).toBeNull();
    expect(keys.verify('session', 'not.a.jwt')).toBeNull();
    expect(keys.verify('session', keys.sign('session', { sub: 'x' }, -10))).toBeNull();
  });

  describe('refuses forged and altered tokens', () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = keys.sign('room-member', { roomId: 'r', userId: 'u' }, 60);
    const [head, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as Record<string, unknown>;
    /** Signs header and claims with the real key, as only the holder of the secret could. */
    const signedWith = (h: object, c: object) => {
      const unsigned = `${part(h)}.${part(c)}`;
      const key = keys.keyFor('room-member', token)!;
      return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
    };

    it('accepts the token as signed, and a well-signed one with the audience in a list', () => {
      expect(keys.verify('room-member', token)).toMatchObject({ roomId: 'r', userId: 'u' });
      expect(
        keys.verify('room-member', signedWith(header, { ...claims, aud: ['x', claims.aud] })),
      ).toMatchObject({ roomId: 'r' });
    });

    it('refuses altered claims, another algorithm, a loose signature or a token of two or four parts', () => {
      expect(
        keys.verify('room-member', `${head}.${part({ ...claims, userId: 'host' })}.${signature}`),
      ).toBeNull();
      expect(keys.verify('room-member', `${part({ ...header, alg: 'none' })}.${body}.`)).toBeNull();
      expect(
        keys.verify('room-member', `${part({ ...header, alg: 'none' })}.${body}.${signature}`),
      ).toBeNull();
      expect(keys.verify('room-member', signedWith({ ...header, alg: 'HS512' }, claims))).toBeNull();
      expect(keys.verify('room-member', `${token}=`)).toBeNull();
      expect(keys.verify('room-member', `${head}.${body}.${signature}.x`)).toBeNull();
      expect(keys.verify('room-member', `${head}.${body}`)).toBeNull();
    });

    it('refuses a wrong audience, no expiry, a past expiry, a future not-before and claims that are no object', () => {
      expect(
        keys.verify('room-member', signedWith(header, { ...claims, aud: 'forkvote:session' })),
      ).toBeNull();
      expect(keys.verify('room-member', signedWith(header, { ...claims, exp: undefined }))).toBeNull();
      expect(keys.verify('room-member', signedWith(header, { ...claims, exp: '9999999999' }))).toBeNull();
      const now = Math.floor(Date.now() / 1000);
      expect(keys.verify('room-member', signedWith(header, { ...claims, exp: now }))).toBeNull();
      expect(keys.verify('room-member', signedWith(header, { ...claims, nbf: now + 60 }))).toBeNull();
      expect(keys.verify('room-member', signedWith(header, { ...claims, nbf: now - 60 }))).not.toBeNull();
      expect(keys.verify('room-member', signedWith(header, [claims] as object))).toBeNull();
    });
  });
});
