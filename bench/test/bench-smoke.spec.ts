/**
 * Small runs of both harnesses, so they keep working: counts and losses are asserted, timings never are.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sse = require('../sse-fanout/index.js') as { main(args: object): Promise<Record<string, number>> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const rest = require('../rest/index.js') as {
  main(args: object): Promise<{
    rows: { call: string; requests: number; errors: number; non2xx: number; requestsPerSecond: number }[];
    cpuMsPerRequest: { call: string; total: number }[];
    hop: { call: string }[];
    rounds: { call: string; round: number; gateway: number; service: number; ratio: number }[];
  }>;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const storm = require('../storm/index.js') as {
  main(args: object): Promise<{
    ballots: { sent: number; ok: number };
    expected: { userVoted: number; ballotsSubmitted: number };
    gateway: {
      connect: { held: number };
      delivery: { userVoted: number; ballotsSubmitted: number; lost: number };
    };
    floor: { connect: { held: number }; delivery: { lost: number }; ballots: { sent: number; ok: number } };
  }>;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
const drain = require('../drain/index.js') as {
  main(args: object): Promise<{
    clients: number;
    onDrainedGateway: number;
    reconnected: number;
    streamingFromSurvivor: number;
    deliveriesExpected: number;
    missed: number;
    duplicates: number;
  }>;
};

describe('benchmark harnesses (smoke)', () => {
  it('drain: the clients of a SIGTERMed gateway resume on the other, missing and repeating nothing', async () => {
    const result = await drain.main({ clients: 100, workers: 1, json: true });
    expect(result).toMatchObject({
      clients: 100,
      onDrainedGateway: 50,
      reconnected: 50,
      streamingFromSurvivor: 100,
      missed: 0,
      duplicates: 0,
    });
    expect(result.deliveriesExpected).toBeGreaterThan(0);
  });

  it('vote storm: 20 rooms of 5 vote twice, every delivery reaches the floor streams, then the gateway streams', async () => {
    const result = await storm.main({ rooms: 20, 'room-size': 5, window: 1, workers: 1, json: true });
    expect(result.ballots).toMatchObject({ sent: 100, ok: 100 });
    expect(result.expected).toEqual({ userVoted: 500, ballotsSubmitted: 100 });
    expect(result.gateway.connect.held).toBe(100);
    expect(result.floor.connect.held).toBe(100);
    expect(result.gateway.delivery).toMatchObject({ userVoted: 500, ballotsSubmitted: 100, lost: 0 });
    expect(result.floor.ballots).toMatchObject({ sent: 100, ok: 100 });
    expect(result.floor.delivery.lost).toBe(0);
  });

  it('SSE fan-out: 500 clients in 50 rooms hold their streams and lose no event', async () => {
    const result = await sse.main({ clients: 500, rooms: 50, json: true });
    expect(result.connectionsHeld).toBe(500);
    expect(result.connectFailures).toBe(0);
    expect(result.eventsExpected).toBe(500);
    expect(result.eventsLost).toBe(0);
  });

  it('REST: join, vote and verify-token answer every request, through the gateway, straight and at a rate', async () => {
    const result = await rest.main({
      requests: 300,
      seconds: 1,
      'room-size': 5,
      connections: 16,
      rate: 200,
      'rate-seconds': 1,
      'hop-requests': 20,
      json: true,
    });
    expect(result.rows.map((r) => [r.call, r.call.startsWith('verify') ? 'any' : r.requests])).toEqual([
      ['join (gateway)', 300],
      ['vote (gateway)', 300],
      ['verify-token (gateway)', 'any'],
      ['join (service only)', 300],
      ['vote (service only)', 300],
      ['verify-token (service only)', 'any'],
      ['join at 200/s (gateway)', 200],
      ['vote at 200/s (gateway)', 200],
    ]);
    for (const row of result.rows) {
      expect(row).toMatchObject({ errors: 0, non2xx: 0 });
      expect(row.requestsPerSecond).toBeGreaterThan(0);
    }
    expect(result.hop.map((h) => h.call)).toEqual(['join', 'vote', 'verify-token']);
    // Each call ran in 4 rounds each way (75 requests a side), and each round has both rates and their ratio.
    expect(result.rounds.map((r) => `${r.call} ${r.round}`)).toEqual([
      ...[1, 2, 3, 4].map((n) => `join ${n}`),
      ...[1, 2, 3, 4].map((n) => `vote ${n}`),
    ]);
    for (const round of result.rounds) {
      expect(round.ratio).toBeCloseTo(round.gateway / round.service, 1);
      expect(round.gateway).toBeGreaterThan(0);
    }
    // Every phase reports what its requests cost in CPU.
    expect(result.cpuMsPerRequest).toHaveLength(8);
    for (const phase of result.cpuMsPerRequest) expect(phase.total).toBeGreaterThan(0);
  });
});
