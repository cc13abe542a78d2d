import { basename, dirname } from 'node:path';
import { startTracing } from './tracing';

/**
 * Imported first by every process's main.ts, before anything that loads Express, pg, ioredis or pino: the
 * OpenTelemetry instrumentations patch those modules as they are first required, so the SDK must be running
 * by then. Starts it when an OTLP endpoint is set (see tracing.ts). The process is named by its folder
 * (`services/rooms/dist/main.js` → rooms) unless OTEL_SERVICE_NAME says otherwise.
 */
const entry = require.main?.filename;
startTracing(entry ? basename(dirname(dirname(entry))) : 'process');
