// @ts-check
/** `npm start`: build, make sure PostgreSQL and Redis answer, start every process, print the URL. */
'use strict';
const { spawnSync } = require('node:child_process');
const { ensurePostgres, ensureRedis, startProcesses, ROOT } = require('./stack');

async function main() {
  const port = Number(process.env.PORT || 3000);
  console.log('Building ForkVote…');
  const build = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);

  const postgres = await ensurePostgres();
  const redis = await ensureRedis();
  const stack = await startProcesses({
    port,
    env: { DATABASE_URL: postgres.url, REDIS_URL: redis.url, LOG_FORMAT: process.env.LOG_FORMAT || 'pretty' },
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
    `\nForkVote is running at http://localhost:${port}  (API docs: http://localhost:${port}/api/docs)\nPress Ctrl-C to stop.\n`,
  );
}

main().catch((err) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});
