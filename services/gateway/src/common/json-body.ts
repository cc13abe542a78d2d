import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import createError from 'http-errors';
import { AsyncResource } from 'node:async_hooks';

/** The content types read here: JSON in UTF-8, said the ways clients say it. */
const PLAIN_JSON = new Set([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
]);
/** JSON's whitespace (RFC 8259): space, tab, line feed, carriage return. */
const FIRST_NON_WHITESPACE = /^[ \t\n\r]*([^ \t\n\r]|$)/;

type WithRawBody = Request & { rawBody?: Buffer };

/**
 * The gateway's JSON body parser. Nearly every body the API gets is JSON in UTF-8 with a Content-Length
 * within the limit and no Content-Encoding: those are read here, and answer as body-parser would (the same
 * `req.body`, the same `req.rawBody` Nest keeps for the Stripe webhook, the same errors). body-parser spends
 * 5–7 µs more on each (bench/README.md, tenth pass): it parses the content type twice, decodes through
 * iconv-lite and binds each read to an async resource. Every other request (another charset, compressed,
 * chunked, empty, over the limit) goes to body-parser itself, so its answers (413, 415, 400) stay
 * body-parser's own.
 *
 * Named `jsonParser` so that Nest, which adds its own parser at startup unless one of that name is in place,
 * leaves it be.
 */
export function jsonBody(options: { limit: number }): RequestHandler {
  const bodyParser = express.json({ limit: options.limit, verify: keepRawBody });
  return function jsonParser(req: Request, res: Response, next: NextFunction): void {
    const type = req.headers['content-type'];
    const length = req.headers['content-length'];
    const expected = Number(length);
    const plain =
      type !== undefined &&
      (PLAIN_JSON.has(type) || PLAIN_JSON.has(type.toLowerCase())) &&
      expected > 0 &&
      expected <= options.limit &&
      req.headers['content-encoding'] === undefined &&
      req.headers['transfer-encoding'] === undefined &&
      !alreadyRead(req);
    if (!plain) return bodyParser(req, res, next);
    read(req, expected, (error, bytes) => {
      if (error) return next(error);
      keepRawBody(req, res, bytes);
      // iconv-lite, which body-parser decodes with, drops a byte order mark.
      const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
      const text = bytes.toString('utf8', bom ? 3 : 0);
      try {
        req.body = parseStrict(text);
      } catch (err) {
        return next(createError(400, err as Error, { body: text, type: 'entity.parse.failed' }));
      }
      next();
    });
  };
}

/** Where body-parser (through on-finished) would read no body: it is gone, or was read already. */
function alreadyRead(req: Request): boolean {
  return (
    (req as { upgrade?: boolean }).upgrade === true ||
    !req.socket?.readable ||
    (req.complete && !req.readable)
  );
}

/** What Nest's `rawBody: true` does in body-parser's `verify`: keeps the bytes for the Stripe webhook. */
function keepRawBody(req: Request, _res: Response, bytes: Buffer): void {
  (req as WithRawBody).rawBody = bytes;
}

/** Reads a body of `expected` bytes; fails as raw-body does when the client goes away or sends too few. */
function read(req: Request, expected: number, done: (error: Error | null, bytes: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  // The body's bytes come in on the socket's turns, not the request's: `done` runs in the request's async
  // context again (its request id and trace), as body-parser's callback does. (Not AsyncResource.bind,
  // which costs about 9 µs a call on Node 20.)
  const context = new AsyncResource('JsonBody');
  const finish = (error: Error | null) => {
    req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
    if (error) req.pause();
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
    context.runInAsyncScope(done, null, error, bytes);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () =>
    finish(
      received === expected
        ? null
        : createError(400, 'request size did not match content length', {
            expected,
            length: expected,
            received,
            type: 'request.size.invalid',
          }),
    );
  const onError = (error: Error) => finish(createError(400, error));
  const onAborted = () =>
    finish(
      createError(400, 'request aborted', {
        code: 'ECONNABORTED',
        expected,
        length: expected,
        received,
        type: 'request.aborted',
      }),
    );
  req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
}

/**
 * body-parser's strict JSON: an object or an array (an empty body reads as `{}`), and for anything else the
 * SyntaxError JSON.parse would give at its first character.
 */
function parseStrict(text: string): unknown {
  if (text.length === 0) return {};
  if (text[0] !== '{' && text[0] !== '[') {
    const first = FIRST_NON_WHITESPACE.exec(text)?.[1] || undefined;
    if (first !== '{' && first !== '[') throw strictViolation(text, first);
  }
  return JSON.parse(text);
}

/** The error JSON.parse gives for `text` up to its first character, named with the text's own characters. */
function strictViolation(text: string, first: string | undefined): SyntaxError {
  const index = first === undefined ? -1 : text.indexOf(first);
  const partial = index === -1 ? '' : text.substring(0, index) + '#'.repeat(text.length - index);
  try {
    JSON.parse(partial);
    return new SyntaxError('strict violation');
  } catch (err) {
    const error = err as SyntaxError;
    const message = error.message.replace(/#+/g, (hashes) => text.substring(index, index + hashes.length));
    error.stack = error.stack?.replace(error.message, message);
    error.message = message;
    return error;
  }
}
