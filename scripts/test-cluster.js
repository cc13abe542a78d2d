#!/usr/bin/env node
// @ts-check
/**
 * `npm run test:cluster`: the transport's contract suite, the API's contract suite (rooms flow, accounts)
 * and the scale-out suite against a Redis Cluster of three masters that this script starts on free ports
 * (`redis-server --cluster-enabled yes`) and stops afterwards. Every process of each stack is told
 * REDIS_URL=<the three nodes> and REDIS_CLUSTER=true. Needs a build (`npm run build`).
 */
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { startRedisCluster } = require('@forkvote/testing/src/stack');

const SUITES = [
  'libs/platform/test/streams-transport.spec.ts',
  'services/rooms/test/rooms-flow.spec.ts',
  'services/auth/test/accounts.spec.ts',
  'services/gateway/test/scale-out.spec.ts',
];

async function main() {
  const cluster = await startRedisCluster(3);
  process.stdout.write(`Redis Cluster of 3 masters: ${cluster.url}\n`);
  let code = 1;
  try {
    const jest = spawn(
      process.execPath,
      [require.resolve('jest/bin/jest'), '--selectProjects', 'integration', '--runInBand', ...SUITES],
      {
        cwd: path.join(__dirname, '..'),
        stdio: 'inherit',
        env: { ...process.env, REDIS_URL: cluster.url, REDIS_CLUSTER: 'true' },
      },
    );
    code = await new Promise((resolve) => jest.on('exit', (exitCode) => resolve(exitCode ?? 1)));
  } finally {
    await cluster.stop();
  }
  process.exit(code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
