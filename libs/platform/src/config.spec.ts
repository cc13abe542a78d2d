import { ConfigError, loadConfig, PlatformConfig } from './config';

describe('loadConfig', () => {
  it('fills defaults for variables that are not set', () => {
    const config = loadConfig(PlatformConfig, {});
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.RPC_TIMEOUT_MS).toBe(5000);
    expect(config.NODE_ENV).toBe('development');
  });

  it('converts numeric variables', () => {
    expect(loadConfig(PlatformConfig, { RPC_TIMEOUT_MS: '750' }).RPC_TIMEOUT_MS).toBe(750);
  });

  it('refuses bad values and names every bad variable', () => {
    const load = () =>
      loadConfig(PlatformConfig, { DATABASE_URL: 'mysql://x', RPC_TIMEOUT_MS: 'soon', LOG_LEVEL: 'loud' });
    expect(load).toThrow(ConfigError);
    try {
      load();
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('DATABASE_URL="mysql://x": DATABASE_URL must be a postgres:// URL');
      expect(message).toContain('RPC_TIMEOUT_MS="soon"');
      expect(message).toContain('LOG_LEVEL="loud"');
    }
  });
});

describe('Redis configuration', () => {
  const nodes = 'redis://:pw1@10.0.0.1:6379,redis://:pw2@10.0.0.2:6379';

  it('refuses a list of nodes without REDIS_CLUSTER=true, masking every password', () => {
    for (const REDIS_CLUSTER of [undefined, 'false']) {
      let message = '';
      try {
        loadConfig(PlatformConfig, { REDIS_URL: nodes, REDIS_CLUSTER });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain(
        'REDIS_URL names several nodes: set REDIS_CLUSTER=true for a Redis Cluster, or give one redis:// URL',
      );
      expect(message).toContain('REDIS_URL="redis://***@10.0.0.1:6379,redis://***@10.0.0.2:6379"');
      expect(message).not.toMatch(/pw1|pw2/);
    }
  });

  it('accepts a list of nodes for a cluster, and one node either way', () => {
    expect(loadConfig(PlatformConfig, { REDIS_URL: nodes, REDIS_CLUSTER: 'true' }).REDIS_URL).toBe(nodes);
    expect(() => loadConfig(PlatformConfig, { REDIS_URL: 'redis://10.0.0.1:6379' })).not.toThrow();
    expect(() =>
      loadConfig(PlatformConfig, { REDIS_URL: 'redis://10.0.0.1:6379', REDIS_CLUSTER: 'true' }),
    ).not.toThrow();
  });
});

describe('production configuration', () => {
  const strong = 'x'.repeat(32);
  const refusal = (env: NodeJS.ProcessEnv) => {
    try {
      loadConfig(PlatformConfig, { NODE_ENV: 'production', ...env });
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  };

  it.each([
    ['unset (the development secret)', {}],
    ['a placeholder', { JWT_SECRET: 'please-change-me-to-something-long-enough' }],
    ['shorter than 32 bytes', { JWT_SECRET: 'x'.repeat(31) }],
  ])('refuses a JWT_SECRET that is %s, without repeating it', (_, env: NodeJS.ProcessEnv) => {
    const message = refusal(env);
    expect(message).toContain('JWT_SECRET=');
    if (env.JWT_SECRET) expect(message).not.toContain(env.JWT_SECRET);
  });

  it('counts bytes, not characters, and accepts a strong secret and an empty previous one', () => {
    expect(refusal({ JWT_SECRET: 'é'.repeat(16) })).toBe('');
    expect(refusal({ JWT_SECRET: strong })).toBe('');
    expect(refusal({ JWT_SECRET: strong, JWT_SECRET_PREVIOUS: 'CHANGE-ME' })).toContain(
      'JWT_SECRET_PREVIOUS=',
    );
  });

  it('needs VAPID keys of its own only when push is on', () => {
    expect(refusal({ JWT_SECRET: strong })).toBe('');
    const off = refusal({ JWT_SECRET: strong, PUSH_ENABLED: 'true' });
    expect(off).toContain('VAPID_PUBLIC_KEY=');
    expect(off).toContain('VAPID_PRIVATE_KEY=');
    const key = 'B'.repeat(87);
    expect(
      refusal({
        JWT_SECRET: strong,
        PUSH_ENABLED: 'true',
        VAPID_PUBLIC_KEY: key,
        VAPID_PRIVATE_KEY: 'a'.repeat(43),
      }),
    ).toBe('');
    expect(refusal({ JWT_SECRET: strong, VAPID_PUBLIC_KEY: 'not base64url!' })).toContain(
      'VAPID_PUBLIC_KEY=',
    );
  });

  it('masks credentials in a URL it refuses', () => {
    const message = refusal({ JWT_SECRET: strong, DATABASE_URL: 'mysql://admin:hunter2@db/x' });
    expect(message).toContain('DATABASE_URL="mysql://***@db/x"');
    expect(message).not.toContain('hunter2');
  });
});
