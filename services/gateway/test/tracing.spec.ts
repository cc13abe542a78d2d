import { ROOM_EVENTS } from '@forkvote/contracts';
import {
  Participant,
  ReceivedSpan,
  signUp,
  START_SEARCH,
  startOtlpReceiver,
  startTestStack,
  TestStack,
} from '@forkvote/testing';

/**
 * Traces as an operator's collector receives them: every process exports OTLP/HTTP to a local receiver,
 * and one vote is one trace across the gateway, rooms and the vote's SQL, with the resource the
 * environment names.
 */
describe('traces (OpenTelemetry Node SDK, OTLP/HTTP)', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  const lines: string[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startTestStack(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
        OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=test,k8s.pod.name=pod-1',
        LOG_LEVEL: 'log',
      },
      (line) => lines.push(line),
    );
  });

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  async function spansOf(traceId: string, until: (spans: ReceivedSpan[]) => boolean) {
    for (let i = 0; i < 100; i++) {
      const spans = receiver.spans.filter((s) => s.traceId === traceId);
      if (until(spans)) return spans;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return receiver.spans.filter((s) => s.traceId === traceId);
  }

  it('makes one trace of a vote: the gateway, rooms, and the SQL that casts it', async () => {
    const host = new Participant(stack.url, (await signUp(stack.url, 'monthly', 'Hana Host')).cookie);
    const created = await host.post('/api/v1/waiting-room/create', { userName: 'Hana' });
    const code = created.body.waitingRoom.waitingRoomId as string;
    const userId = created.body.userId as string;
    const started = await host.post('/api/v1/waiting-room/start', START_SEARCH, {
      Authorization: `Bearer ${created.body.token}`,
    });
    expect(started.status).toBe(200);
    const stream = await host.events(code, userId);
    await stream.waitFor(ROOM_EVENTS.subscribed);
    const places = (started.body.places as { id: string }[]).slice(0, 5);
    const voted = await host.patch('/api/v1/waiting-room/vote', {
      waitingRoomId: code,
      userId,
      votes: places.map((p) => ({ placeId: p.id, voteType: 'up' })),
    });
    expect(voted.status).toBe(200);
    await stream.waitFor(ROOM_EVENTS.ballotsSubmitted);
    stream.close();

    // The gateway's server span for the call, found by its route.
    let server: ReceivedSpan | undefined;
    for (let i = 0; i < 100 && !server; i++) {
      server = receiver.spans.find(
        (s) =>
          s.service === 'forkvote-gateway' &&
          s.kind === 2 &&
          s.attributes['http.route'] === '/api/v1/waiting-room/vote',
      );
      if (!server) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(server).toBeDefined();
    const isVoteSql = (s: ReceivedSpan) =>
      String(s.attributes['db.query.text'] ?? s.attributes['db.statement'] ?? '').includes('cast_ballot');
    const fanout = (s: ReceivedSpan) => s.service === 'forkvote-gateway' && s.name === 'room-event fanout';
    const spans = await spansOf(
      server!.traceId,
      (found) => found.some(isVoteSql) && found.filter(fanout).length >= 2,
    );
    const services = new Set(spans.map((s) => s.service));
    expect(services).toEqual(new Set(['forkvote-gateway', 'forkvote-rooms']));
    expect(spans.filter(isVoteSql)).toHaveLength(1);
    expect(spans.some((s) => s.service === 'forkvote-rooms' && s.name === 'rooms.vote')).toBe(true);
    // Through the outbox: the relay publishes the vote's events (USER_VOTED, then BALLOTS_SUBMITTED, as
    // this ballot closed the batch) as spans of the vote's trace, and the gateway's fan-out of each to the
    // host's stream is a child of its publish.
    const publishes = spans.filter((s) => s.service === 'forkvote-rooms' && s.name === 'room-event publish');
    expect(publishes.map((s) => s.attributes['forkvote.room_event']).sort()).toEqual([
      ROOM_EVENTS.ballotsSubmitted,
      ROOM_EVENTS.userVoted,
    ]);
    const fanouts = spans.filter(fanout);
    expect(fanouts.map((s) => s.attributes['forkvote.room_event']).sort()).toEqual([
      ROOM_EVENTS.ballotsSubmitted,
      ROOM_EVENTS.userVoted,
    ]);
    for (const span of fanouts) expect(publishes.map((p) => p.spanId)).toContain(span.parentSpanId);
    // The browser's events carry no trace context.
    expect(stream.events.every((e) => !JSON.stringify(e.data).includes('traceparent'))).toBe(true);
    // The resource: the defaults, and what OTEL_RESOURCE_ATTRIBUTES adds.
    expect(server!.resource).toMatchObject({
      'service.namespace': 'forkvote',
      'service.version': expect.stringMatching(/^\d+\.\d+\.\d+/),
      'deployment.environment.name': 'test',
      'k8s.pod.name': 'pod-1',
    });
    // Probes and scrapes make no traces.
    expect(receiver.spans.some((s) => String(s.attributes['url.path'] ?? '').includes('/health'))).toBe(
      false,
    );
    // Log lines written inside the trace carry its ids.
    expect(lines.some((line) => line.includes(`"trace_id":"${server!.traceId}"`))).toBe(true);
  });
});
