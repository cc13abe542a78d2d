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
