import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PinoInstrumentation } from '@opentelemetry/instrumentation-pino';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SERVICE_VERSION } from './version';

/** Operators' requests (probes, scrapes) make no traces. */
const OPERATOR_PATHS = /^\/(metrics|live|ready|health)$|^\/api\/v1\/health(\/|$)/;

/** The Node SDK as every process runs it when tracing is on (tracing.ts starts it). */
export function createSdk(service: string): NodeSDK {
  return new NodeSDK({
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
}
