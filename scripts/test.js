#!/usr/bin/env node
// @ts-check
/**
 * `npm test`: every stage, each one's time printed at the end (and the stage that failed). A failed group
 * stops the run; the table still shows what ran.
 */
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');

/**
 * Groups of stages, each an npm script; a group's stages run at once. On two cores two single-threaded
 * stages (tsc, eslint) finish together in about the time of the longer; the integration suites (two jest
 * workers, each suite on its own stack) and the Redis Cluster suite spend much of their time waiting on
 * processes they started.
 */
const GROUPS = [
  ['build'],
  ['typecheck', 'lint'],
  ['test:unit', 'test:web'],
  ['test:integration', 'test:cluster'],
  ['test:e2e'],
];

/**
 * Runs one stage. The first of a group writes to this terminal as it goes; the others' output is held and
 * written when they end, so two stages' lines never interleave.
 * @param {string} script
 * @param {boolean} live
 * @returns {Promise<{ script: string, code: number, seconds: number }>}
 */
function run(script, live) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { cwd: ROOT, stdio: live ? 'inherit' : 'pipe' });
    /** @type {Buffer[]} */
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
    child.on('close', (code) => {
      if (!live) process.stdout.write(Buffer.concat(held));
      resolve({ script, code: code ?? 1, seconds: (Date.now() - started) / 1000 });
    });
  });
}

async function main() {
  const started = Date.now();
  /** @type {{ script: string, code: number, seconds: number }[]} */
  const results = [];
  for (const group of GROUPS) {
    const done = await Promise.all(group.map((script, i) => run(script, i === 0)));
    results.push(...done);
    if (done.some((r) => r.code !== 0)) break;
  }
  const total = (Date.now() - started) / 1000;
  const rows = results.map(
    (r) =>
      `  ${r.script.padEnd(18)} ${r.seconds.toFixed(0).padStart(5)} s  ${r.code === 0 ? 'ok' : 'FAILED'}`,
  );
  process.stdout.write(
    `\nnpm test, stage by stage:\n${rows.join('\n')}\n  ${'total'.padEnd(18)} ${total.toFixed(0).padStart(5)} s\n`,
  );
  process.exit(results.every((r) => r.code === 0) && results.length > 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
