/**
 * Small runs of both harnesses, so they keep working: counts and losses are asserted, timings never are.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sse = require('../sse-fanout/index.js') as { main(args: object): Promise<Record<string, number>> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rest = require('../rest/index.js') as {
  main(
    args: object,
  ): Promise<{ rows: { call: string; errors: number; non2xx: number; requestsPerSecond: number }[] }>;
};

describe('benchmark harnesses (smoke)', () => {
  it('SSE fan-out: 500 clients in 50 rooms hold their streams and lose no event', async () => {
    const result = await sse.main({ clients: 500, rooms: 50, json: true });
    expect(result.connectionsHeld).toBe(500);
    expect(result.connectFailures).toBe(0);
    expect(result.eventsExpected).toBe(500);
    expect(result.eventsLost).toBe(0);
  });

  it('REST: join, vote and verify-token answer every request, through the gateway and straight', async () => {
    const result = await rest.main({ requests: 300, seconds: 1, rooms: 10, connections: 16, json: true });
    expect(result.rows.map((r) => r.call)).toEqual([
      'join (gateway)',
      'join (service only)',
      'vote (gateway)',
      'vote (service only)',
      'verify-token (gateway)',
      'verify-token (service only)',
    ]);
    for (const row of result.rows) {
      expect(row).toMatchObject({ errors: 0, non2xx: 0 });
      expect(row.requestsPerSecond).toBeGreaterThan(0);
    }
  });
});
