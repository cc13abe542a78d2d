import { HEALTH_PATTERNS, SERVICE_NAMES, serviceOfPattern } from './patterns';

describe('serviceOfPattern', () => {
  it('routes a pattern to the service named before the first dot', () => {
    expect(serviceOfPattern('rooms.create')).toBe('rooms');
    expect(serviceOfPattern('auth.token.verify')).toBe('auth');
  });

  it('keeps a pattern without a dot whole', () => {
    expect(serviceOfPattern('orphan')).toBe('orphan');
  });

  it('gives every service a health pattern that routes back to it', () => {
    for (const service of SERVICE_NAMES) expect(serviceOfPattern(HEALTH_PATTERNS[service])).toBe(service);
  });
});
