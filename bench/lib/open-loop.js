// @ts-check
/**
 * An open-loop load generator: requests leave on a fixed schedule (`rate` per second, evenly spaced),
 * whether or not earlier ones have been answered, and each latency is measured from the moment its
 * request was due. A slow server therefore shows as latency, never as a lower offered rate (no
 * "coordinated omission"). autocannon's own rate option is not this: it lets each connection send its
 * whole quota for a second at the start of that second, so its latency at a rate measures bursts.
 */
'use strict';
const { performance } = require('node:perf_hooks');
const { Pool } = require('undici');
const { percentiles } = require('./harness');

/**
 * @param {{
 *   url: string,
 *   rate: number,
 *   count: number,
 *   connections?: number,
 *   request: (index: number) => { method: string, path: string, headers?: Record<string, string>, body?: string },
 *   onResponse?: (index: number, status: number, headers: Record<string, string | string[] | undefined>, body: string) => void,
 * }} options
 */
async function openLoop({ url, rate, count, connections = 128, request, onResponse = () => {} }) {
  const pool = new Pool(url, { connections, pipelining: 1 });
  const latencies = [];
  let non2xx = 0;
  let errors = 0;
  let lastAnswer = 0;
  const interval = 1000 / rate;
  const started = performance.now();
  const inFlight = new Set();

  const send = (index, due) => {
    const work = pool
      .request(request(index))
      .then(async (res) => {
        const body = await res.body.text();
        const now = performance.now();
        latencies.push(now - due);
        lastAnswer = now;
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx += 1;
        onResponse(index, res.statusCode, res.headers, body);
      })
      .catch(() => (errors += 1))
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  };

  await new Promise((resolve) => {
    let sent = 0;
    const tick = () => {
      // Everything due by now leaves now; timers fire about once a millisecond.
      const due = Math.min(count, Math.floor((performance.now() - started) / interval) + 1);
      while (sent < due) {
        send(sent, started + sent * interval);
        sent += 1;
      }
      if (sent < count) setTimeout(tick, 1);
      else resolve(undefined);
    };
    tick();
  });
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  await pool.close();

  const seconds = (lastAnswer - started) / 1000;
  return {
    requests: latencies.length - non2xx,
    requestsPerSecond: Math.round(latencies.length / seconds),
    latency: percentiles(latencies),
    non2xx,
    errors,
  };
}

module.exports = { openLoop };
