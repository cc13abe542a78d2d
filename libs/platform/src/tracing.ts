import {
  context,
  propagation,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/*
 * Traces with OpenTelemetry. The API calls below cost next to nothing until an SDK is registered, and
 * `startTracing` registers one only when OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads that and
 * the other OTEL_* variables itself). The W3C `traceparent` crosses the transport in each request envelope.
 */

let provider: NodeTracerProvider | undefined;

/** Starts the SDK for this process when an OTLP endpoint is configured; returns whether it did. */
export function startTracing(service: string): boolean {
  if (provider || !process.env.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `forkvote-${service}` }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter(), {
        scheduledDelayMillis: Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 5000,
      }),
    ],
  });
  // Also sets the W3C trace-context propagator and an AsyncLocalStorage context manager.
  provider.register();
  return true;
}

/** Sends the spans still buffered (at shutdown). */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown().catch(() => undefined);
}

export const tracer = () => trace.getTracer('forkvote');

/** Whether spans go anywhere: without an SDK a caller can skip making them at all. */
export const tracingStarted = (): boolean => provider !== undefined;

/** The active trace context as headers (`traceparent`, `tracestate`), for an envelope. */
export function traceHeaders(active: Context = context.active()): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** The context a caller's headers name, or none. */
export function contextFrom(headers: Record<string, string | string[] | undefined> | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers) : ROOT_CONTEXT;
}

/** Ends a span with an error status when `failed`. */
export function endSpan(span: Span, failed: boolean, message?: string): void {
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

export { context, SpanKind, trace, type Span };
