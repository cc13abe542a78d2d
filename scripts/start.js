// @ts-check
/** `npm start`: build, make sure PostgreSQL and Redis answer, start every process, print the URL. */
'use strict';
const { spawnSync } = require('node:child_process');
const { ensurePostgres, ensureRedis, startProcesses, ROOT } = require('@forkvote/launcher');

async function main() {
  const port = Number(process.env.PORT || 3000);
  console.log('Building ForkVote…');
  const build = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);

  // Each service's /live, /ready and /metrics on a port of its own (one machine, so one port each).
  const healthPorts = { auth: 9101, rooms: 9102, billing: 9103, places: 9104 };
  const metricsPort = Number(process.env.METRICS_PORT || 9464);
  const postgres = await ensurePostgres();
  const redis = await ensureRedis();
  const stack = await startProcesses({
    port,
    env: {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      LOG_FORMAT: process.env.LOG_FORMAT || 'pretty',
      METRICS_PORT: String(metricsPort),
      // This machine's own development outbox: reset links are read at /api/v1/dev/outbox from here.
      SERVE_DEV_OUTBOX: process.env.SERVE_DEV_OUTBOX || 'true',
      // Notifications on, with a development key pair derived from the development secret.
      PUSH_ENABLED: process.env.PUSH_ENABLED || 'true',
    },
    processEnv: Object.fromEntries(
      Object.entries(healthPorts).map(([name, port]) => [name, { HEALTH_PORT: String(port) }]),
    ),
  });

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping ForkVote…');
    await stack.stop();
    await redis.stop();
    await postgres.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await stack.waitHealthy(90_000);
  console.log(
    `\nForkVote is running at http://localhost:${port}  (API docs: http://localhost:${port}/api/docs)\n` +
      `Metrics: gateway http://localhost:${metricsPort}/metrics; ` +
      Object.entries(healthPorts)
        .map(([name, p]) => `${name} http://localhost:${p}/metrics`)
        .join(', ') +
      '\nPress Ctrl-C to stop.\n',
  );
}

main().catch((err) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
