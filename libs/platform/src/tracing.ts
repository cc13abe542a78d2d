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
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SERVICE_VERSION } from './version';

/*
 * Traces with the OpenTelemetry Node SDK. The API calls below cost next to nothing until the SDK starts,
 * and `startTracing` starts it only when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; the exporter and the SDK read those and the other OTEL_* variables
 * themselves, OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES included). It must run before Express, pg,
 * ioredis and pino are first required, which the instrumentations patch as they load: each process's
 * main.ts imports `@forkvote/platform/instrument` first. The W3C `traceparent` crosses the transport in
 * each request envelope, and the outbox in each event row.
 */

let sdk: NodeSDK | undefined;

/** Operators' requests (probes, scrapes) make no traces. */
const OPERATOR_PATHS = /^\/(metrics|live|ready|health)$|^\/api\/v1\/health(\/|$)/;

/** Starts the SDK for this process when an OTLP endpoint is configured; returns whether it did. */
export function startTracing(service: string): boolean {
  const endpoint = process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (sdk || !endpoint) return false;
  sdk = new NodeSDK({
    // Defaults; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (read by the SDK's env detector) win.
    resource: resourceFromAttributes({
      'service.name': `forkvote-${service}`,
      'service.namespace': 'forkvote',
      'service.version': SERVICE_VERSION,
    }),
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => OPERATOR_PATHS.test((req.url ?? '').split('?')[0]),
      }),
      new ExpressInstrumentation(),
      // Only inside a trace: the transport's blocking reads and the pool's checks would otherwise each
      // make a trace of their own, every second.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
      new PinoInstrumentation(),
    ],
  });
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
