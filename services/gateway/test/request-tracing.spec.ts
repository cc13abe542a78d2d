import { ROOM_EVENTS } from '@forkvote/contracts';
import { freePort, Participant, signUp, START_SEARCH } from '@forkvote/testing';
import { RunningStack, startTestStack } from '@forkvote/testing/src/stack';
import { createServer, Server } from 'node:http';

/**
 * Request ids and traces across processes: each request's id comes back as X-Request-Id, is on the
 * gateway's access line and on the line of every service that handled a call it caused; with
 * OTEL_EXPORTER_OTLP_ENDPOINT set, a vote is one trace from the gateway's HTTP span through the transport
 * to rooms' handler. The spans are collected by a local OTLP/HTTP receiver (the processes' real exporter).
 */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  service: string;
}

describe('request ids, access logs and traces', () => {
  let stack: RunningStack;
  let collector: Server;
  const spans: OtlpSpan[] = [];
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const port = await freePort();
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          const parsed = JSON.parse(body) as {
            resourceSpans: {
              resource: { attributes: { key: string; value: { stringValue?: string } }[] };
              scopeSpans: { spans: Omit<OtlpSpan, 'service'>[] }[];
            }[];
          };
          for (const resource of parsed.resourceSpans) {
            const service =
              resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
            for (const scope of resource.scopeSpans)
              for (const span of scope.spans) spans.push({ ...span, service });
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(port, '127.0.0.1', resolve));
    stack = await startTestStack({
      env: {
        LOG_LEVEL: 'log',
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_BSP_SCHEDULE_DELAY: '100',
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
    collector?.close();
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
    stream.close();

    await eventually(() => {
      const trace = spans.filter((s) => s.traceId === traceId);
      const http = trace.find(
        (s) => s.service === 'forkvote-gateway' && s.name === 'PATCH /api/v1/waiting-room/vote',
      );
      const client = trace.find((s) => s.service === 'forkvote-gateway' && s.name === 'rooms.vote');
      const handler = trace.find((s) => s.service === 'forkvote-rooms' && s.name === 'rooms.vote');
      expect(http).toMatchObject({ parentSpanId: '00f067aa0ba902b7', kind: 2 });
      expect(client).toMatchObject({ parentSpanId: http!.spanId, kind: 3 });
      expect(handler).toMatchObject({ parentSpanId: client!.spanId, kind: 2 });
    });
  });
});
