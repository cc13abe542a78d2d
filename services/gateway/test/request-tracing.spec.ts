import { ROOM_EVENTS } from '@forkvote/contracts';
import { Participant, ReceivedSpan, signUp, START_SEARCH, startOtlpReceiver } from '@forkvote/testing';
import { RunningStack, startTestStack } from '@forkvote/testing/src/stack';

/**
 * Request ids and traces across processes: each request's id comes back as X-Request-Id, is on the
 * gateway's access line and on the line of every service that handled a call it caused; with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, a vote is one trace from the gateway's HTTP span through the transport
 * to rooms' handler, the vote's SQL, the outbox's publish and the gateway's fan-out. The spans are
 * collected by a local OTLP/HTTP receiver (the processes' real exporter, as a collector receives them).
 */
describe('request ids, access logs and traces', () => {
  let stack: RunningStack;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startTestStack({
      env: {
        LOG_LEVEL: 'log',
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,k8s.pod.name=pod-1',
      },
      output: (line) => {
        const json = line.slice(line.indexOf('|') + 2);
        try {
          lines.push(JSON.parse(json));
        } catch {
          // Not a log line (a stack's own message).
        }
      },
    });
    await stack.waitHealthy(60_000);
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  const linesFor = (reqId: string) => lines.filter((l) => l.reqId === reqId);
  const eventually = async (check: () => void, ms = 5000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      try {
        return check();
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  it('answers, logs and passes on a request id, and hashes the user on the access line', async () => {
    const user = await signUp(stack.url, 'monthly', 'Rhea Request');
    const host = new Participant(stack.url, user.cookie);
    const created = await host.post(
      '/api/v1/waiting-room/create',
      { userName: 'Rhea' },
      { 'X-Request-Id': 'req-create-0001' },
    );
    expect(created.status).toBe(200);
    expect(created.headers['x-request-id']).toBe('req-create-0001');
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
      'X-Request-Id': 'req-start-0001',
    });
    expect(started.status).toBe(200);
    // A client's id that is not plain and short is replaced.
    const odd = await host.get('/api/v1/places/types', { 'X-Request-Id': 'no good\u00e9' + 'x'.repeat(80) });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

    await eventually(() => {
      const access = linesFor('req-create-0001').find((l) => l.service === 'gateway' && l.msg === 'request');
      expect(access).toMatchObject({
        level: 'info',
        route: '/api/v1/waiting-room/create',
        req: { method: 'POST', path: '/api/v1/waiting-room/create' },
        res: { status: 200 },
        durationMs: expect.any(Number),
        userHash: expect.stringMatching(/^[\w-]{12}$/),
      });
      expect(JSON.stringify(access)).not.toContain(user.cookie.split('=')[1]);
      expect(access!.userHash).not.toBe(created.body.userId);
      expect(linesFor('req-create-0001').find((l) => l.service === 'rooms')).toMatchObject({
        msg: 'rpc',
        pattern: 'rooms.create',
        outcome: 'ok',
      });
      // Rooms asked places during the start: that call carries the start's id to places.
      expect(linesFor('req-start-0001').map((l) => `${l.service} ${l.pattern ?? l.route}`)).toEqual(
        expect.arrayContaining([
          'gateway /api/v1/waiting-room/start',
          'rooms rooms.start',
          'places places.search',
        ]),
      );
    });
  });

  it('traces a vote as one trace from the gateway through the transport to rooms', async () => {
    const user = await signUp(stack.url, 'monthly', 'Tara Trace');
    const host = new Participant(stack.url, user.cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Tara' });
    const code = created.body.waitingRoom.waitingRoomId;
    const stream = await host.events(code, created.body.userId);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const vote = await host.patch(
      '/api/v1/waiting-room/vote',
      {
        waitingRoomId: code,
        userId: created.body.userId,
        votes: started.body.places
          .slice(0, 5)
          .map((p: { id: string }) => ({ placeId: p.id, voteType: 'up' })),
      },
      // The caller's own trace is continued.
      { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(vote.status).toBe(200);
    await stream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    stream.close();

    const isVoteSql = (s: ReceivedSpan) =>
      String(s.attributes['db.query.text'] ?? s.attributes['db.statement'] ?? '').includes('cast_ballot');
    const named = (trace: ReceivedSpan[], service: string, name: string) =>
      trace.filter((s) => s.service === service && s.name === name);
    await eventually(() => {
      const trace = receiver.spans.filter((s) => s.traceId === traceId);
      const [http] = named(trace, 'forkvote-gateway', 'PATCH /api/v1/waiting-room/vote');
      const [client] = named(trace, 'forkvote-gateway', 'rooms.vote');
      const [handler] = named(trace, 'forkvote-rooms', 'rooms.vote');
      expect(http).toMatchObject({ parentSpanId: '00f067aa0ba902b7', kind: 2 });
      // The call is made inside the request (through Express's handler span) and handled as its child.
      const byId = new Map(trace.map((s) => [s.spanId, s]));
      const ancestors = (span: ReceivedSpan) => {
        const chain: string[] = [];
        for (let at = span.parentSpanId; at && byId.has(at); at = byId.get(at)!.parentSpanId) chain.push(at);
        return chain;
      };
      expect(client.kind).toBe(3);
      expect(ancestors(client)).toContain(http.spanId);
      expect(handler).toMatchObject({ parentSpanId: client.spanId, kind: 2 });
      // The vote's SQL is a span of rooms' handler.
      expect(trace.filter(isVoteSql)).toHaveLength(1);
      expect(ancestors(trace.find(isVoteSql)!)).toContain(handler.spanId);
      // Through the outbox: the relay publishes the vote's events (USER_VOTED, then BALLOTS_SUBMITTED, as
      // this ballot closed the batch) as spans of the vote's trace, and the gateway's fan-out of each to
      // the host's stream is a child of its publish.
      const publishes = named(trace, 'forkvote-rooms', 'room-event publish');
      const fanouts = named(trace, 'forkvote-gateway', 'room-event fanout');
      for (const spans of [publishes, fanouts])
        expect(spans.map((s) => s.attributes['forkvote.room_event']).sort()).toEqual([
          ROOM_EVENTS.ballotsSubmitted,
          ROOM_EVENTS.userVoted,
        ]);
      for (const fanout of fanouts) expect(publishes.map((p) => p.spanId)).toContain(fanout.parentSpanId);
      // The resource: the process, namespace and version, and what OTEL_RESOURCE_ATTRIBUTES adds.
      expect(http.resource).toMatchObject({
        'service.namespace': 'forkvote',
        'service.version': expect.stringMatching(/^\d+\.\d+\.\d+/),
        'deployment.environment.name': 'test',
        'k8s.pod.name': 'pod-1',
      });
      // Log lines written inside the trace carry its ids: the gateway's access line, rooms' call line.
      for (const service of ['gateway', 'rooms'])
        expect(lines.some((l) => l.service === service && l.trace_id === traceId)).toBe(true);
    });
    // The browser's events carry no trace context.
    expect(stream.events.every((e) => !JSON.stringify(e.data).includes('traceparent'))).toBe(true);
    // Probes and scrapes make no traces (the stack's start polled /api/v1/health many times).
    const gatewayServer = receiver.spans.filter((s) => s.service === 'forkvote-gateway' && s.kind === 2);
    expect(gatewayServer.filter((s) => s.name.includes('health'))).toEqual([]);
  });
});
