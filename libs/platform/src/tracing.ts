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
import type { NodeSDK } from '@opentelemetry/sdk-node';

/*
 * Traces with the OpenTelemetry Node SDK. The API calls below cost next to nothing until the SDK starts,
 * and `startTracing` starts it only when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; the exporter and the SDK read those and the other OTEL_* variables
 * themselves, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES included). It must run before Express, pg,
 * ioredis and pino are first required, which the instrumentations patch as they load: each process's
 * main.ts imports `@forkvote/platform/dist/instrument` first. The W3C `traceparent` crosses the transport in
 * each request envelope, and the outbox in each event row.
 */

let sdk: NodeSDK | undefined;

/** Starts the SDK for this process when an OTLP endpoint is configured; returns whether it did. */
export function startTracing(service: string): boolean {
  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (sdk || !endpoint) return false;
  // Required here, not imported: the SDK and its instrumentations take most of a second and 45 MB to
  // load, which a process without tracing never pays.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createSdk } = require('./tracing-sdk') as typeof import('./tracing-sdk');
  sdk = createSdk(service);
  sdk.start();
  process.once('SIGTERM', () => void stopTracing());
  return true;
}

/** Sends the spans still buffered (at shutdown). */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
}

export const tracer = () => trace.getTracer('forkvote');

/** Whether spans go anywhere: without an SDK a caller can skip making them at all. */
export const tracingStarted = (): boolean => sdk !== undefined;

/** The active trace context as headers (`traceparent`, `tracestate`), for an envelope. */
export function traceHeaders(active: Context = context.active()): Record<string, string> | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(active, carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/** The active span's W3C `traceparent`, or null outside a trace (for an outbox row). */
export function activeTraceparent(): string | null {
  return traceHeaders()?.traceparent ?? null;
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
