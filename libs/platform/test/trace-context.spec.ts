import { context, SpanKind, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { randomBytes } from 'node:crypto';
import { currentRequestId, requestContext } from '../src/request-context';
import { StreamsClient, StreamsServer } from '../src/transport';

/**
 * What crosses the transport besides the request, in one process with an in-memory span exporter: the
 * caller's trace (W3C traceparent in the envelope) and request id reach the handler, whose span is a child
 * of the caller's; without either, the handler starts fresh.
 */
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe('trace context and request id across the transport', () => {
  const exporter = new InMemorySpanExporter();
  // The SDK as the processes start it (global provider, context manager, W3C propagator), spans in memory.
  const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor({ exporter })], instrumentations: [] });
  const prefix = `fvtest-trace-${randomBytes(4).toString('hex')}`;
  const options = { redis: { url: REDIS_URL, cluster: false }, prefix, claimIdleMs: 1000, maxLen: 1000 };
  const server = new StreamsServer({ ...options, service: 'echo', blockMs: 200 });
  const client = new StreamsClient({ ...options, timeoutMs: 5000 });

  beforeAll(async () => {
    sdk.start();
    server.addHandler('echo.who', async () => ({
      requestId: currentRequestId(),
      traceId: trace.getActiveSpan()?.spanContext().traceId,
    }));
    await new Promise<void>((resolve, reject) =>
      server.listen((err?: unknown) => (err ? reject(err) : resolve())),
    );
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    await sdk.shutdown();
    trace.disable();
    context.disable();
  });

  beforeEach(() => exporter.reset());

  it('carries the caller’s trace and request id to the handler, whose span is the child of the send', async () => {
    const tracer = trace.getTracer('test');
    const parent = tracer.startSpan('PATCH /api/v1/waiting-room/vote', { kind: SpanKind.SERVER });
    const answer = await requestContext.run({ requestId: 'req-vote-1' }, () =>
      context.with(trace.setSpan(context.active(), parent), () =>
        client.request<{ requestId: string; traceId: string }>('echo.who', {}),
      ),
    );
    parent.end();
    const traceId = parent.spanContext().traceId;
    expect(answer).toEqual({ requestId: 'req-vote-1', traceId });

    const spans = exporter.getFinishedSpans();
    const send = spans.find((s) => s.name === 'echo.who' && s.kind === SpanKind.CLIENT)!;
    const handle = spans.find((s) => s.name === 'echo.who' && s.kind === SpanKind.SERVER)!;
    expect(send.spanContext().traceId).toBe(traceId);
    expect(send.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(handle.spanContext().traceId).toBe(traceId);
    expect(handle.parentSpanContext?.spanId).toBe(send.spanContext().spanId);
  });

  it('gives a call made outside any request its own trace, and the transport’s id as request id', async () => {
    const answer = await client.request<{ requestId: string; traceId: string }>('echo.who', {});
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const handle = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER)!;
    expect(handle.spanContext().traceId).toBe(answer.traceId);
    expect(handle.parentSpanContext?.spanId).toBe(
      exporter
        .getFinishedSpans()
        .find((s) => s.kind === SpanKind.CLIENT)!
        .spanContext().spanId,
    );
  });
});
