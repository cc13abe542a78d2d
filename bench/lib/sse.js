// @ts-check
/** The one SSE reader of the bench processes: calls `onFrame` with each complete frame of a response. */
'use strict';

/**
 * @param {import('node:http').IncomingMessage} res
 * @param {(frame: string) => void} onFrame
 */
function readFrames(res, onFrame) {
  res.setEncoding('utf8');
  let buffer = '';
  res.on('data', (chunk) => {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      onFrame(frame);
    }
  });
}

module.exports = { readFrames };
