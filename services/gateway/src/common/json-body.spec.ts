import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import fc from 'fast-check';
import { AsyncLocalStorage } from 'node:async_hooks';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { jsonBody } from './json-body';

const LIMIT = 2 * 1024 * 1024;

/** How a parser left a request: its body and raw bytes, or the error it passed on. */
const report: RequestHandler = (req, res) => {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  res.json({ body: req.body ?? null, raw: raw?.toString('base64') ?? null });
};
const reportError: ErrorRequestHandler = (err, _req, res, _next) => {
  const { status, statusCode, expose, type, name, message, code, expected, received, limit } = err;
  res
    .status(299)
    .json({ error: { status, statusCode, expose, type, name, message, code, expected, received, limit } });
};

/** Sends the same bytes and headers as one request; answers what the route reported. */
function send(port: number, path: string, headers: Record<string, string>, body: Buffer): Promise<object> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'PATCH', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the gateway’s JSON body parser', () => {
  let server: Server;
  let port: number;
  let fallbacks = 0;

  beforeAll(async () => {
    // Counts the requests the reader hands to body-parser, so a test knows which of the two read its body.
    const stockJson = express.json;
    const spy = jest.spyOn(express, 'json').mockImplementation((options) => {
      const parser = stockJson(options);
      return (req, res, next) => {
        fallbacks += 1;
        parser(req, res, next);
      };
    });
    const ours = jsonBody({ limit: LIMIT });
    spy.mockRestore();
    // body-parser as Nest sets it up with `rawBody: true`.
    const stock = express.json({
      limit: '2mb',
      verify: (req, _res, bytes) => ((req as Request & { rawBody?: Buffer }).rawBody = bytes),
    });
    const app = express();
    app.patch('/ours', ours, report);
    app.patch('/stock', stock, report);
    app.use(reportError);
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  /** Both parsers' reports for one request, and whether ours read it itself. */
  async function both(headers: Record<string, string>, body: Buffer) {
    const before = fallbacks;
    const ours = await send(port, '/ours', headers, body);
    const stock = await send(port, '/stock', headers, body);
    return { ours, stock, readByUs: fallbacks === before };
  }

  it('reads plain JSON itself, with the body, raw bytes and errors body-parser would give', async () => {
    const text = fc.oneof(
      fc.json(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom(
        '',
        ' ',
        '{',
        '[1,',
        '{"a":1}x',
        '"x"',
        ' \n\t{"a":[]} ',
        '\r\n"y"',
        'null',
        '12',
        'tru',
      ),
      fc.tuple(fc.constantFrom(' ', '\t', '\n', '\r', '\ufeff', '\u00a0'), fc.json()).map(([a, b]) => a + b),
    );
    const bytes = fc.oneof(
      text.map((t) => Buffer.from(t, 'utf8')),
      // Not always UTF-8: stray bytes, and a byte order mark in front.
      fc.uint8Array({ minLength: 1, maxLength: 40 }).map((b) => Buffer.from(b)),
      text.map((t) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t, 'utf8')])),
    );
    const type = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=utf-8',
      'Application/JSON; Charset=UTF-8',
    );
    let readByUs = 0;
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(bytes, type, async (body, contentType) => {
        runs += 1;
        const answer = await both(
          { 'content-type': contentType, 'content-length': String(body.length) },
          body,
        );
        expect(answer.ours).toEqual(answer.stock);
        if (answer.readByUs) readByUs += 1;
      }),
      { seed: 20_261_124, numRuns: 400, endOnFailure: true },
    );
    // Every request with a body of at least a byte was ours to read (an empty one is body-parser's).
    expect(readByUs).toBeGreaterThan(runs * 0.95);
  });

  it('leaves every other request to body-parser, which answers it as before', async () => {
    const json = Buffer.from('{"waitingRoomId":"ABC123"}');
    const cases: [string, Record<string, string>, Buffer][] = [
      ['empty', { 'content-type': 'application/json', 'content-length': '0' }, Buffer.alloc(0)],
      ['latin1', { 'content-type': 'application/json; charset=latin1' }, json],
      ['utf-16', { 'content-type': 'application/json; charset=utf-16' }, json],
      ['utf8 without the hyphen', { 'content-type': 'application/json; charset=utf8' }, json],
      ['a JSON subtype', { 'content-type': 'application/merge-patch+json' }, json],
      ['text', { 'content-type': 'text/plain' }, json],
      ['gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(json)],
      ['gzip junk', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, json],
      ['identity', { 'content-type': 'application/json', 'content-encoding': 'identity' }, json],
      ['unknown encoding', { 'content-type': 'application/json', 'content-encoding': 'xyz' }, json],
      ['chunked', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, json],
      ['over the limit', { 'content-type': 'application/json' }, Buffer.alloc(LIMIT + 1, 0x20)],
    ];
    for (const [name, headers, body] of cases) {
      const withLength = headers['transfer-encoding']
        ? headers
        : { ...headers, 'content-length': String(body.length) };
      const answer = await both(withLength, body);
      expect({ name, ...answer.ours }).toEqual({ name, ...answer.stock });
      expect({ name, readByUs: answer.readByUs }).toEqual({ name, readByUs: false });
    }
  });

  it('goes on in the request’s async context when the body comes in later', async () => {
    const context = new AsyncLocalStorage<string>();
    const app = express();
    const parser = jsonBody({ limit: LIMIT });
    app.patch('/late', (req, res, next) => context.run('the request', () => parser(req, res, next)));
    app.patch('/late', (req, res) => {
      res.json({ body: req.body, context: context.getStore() ?? null });
    });
    const late = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => late.once('listening', resolve));
    try {
      const answer = await new Promise<unknown>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: (late.address() as AddressInfo).port,
            path: '/late',
            method: 'PATCH',
            headers: { 'content-type': 'application/json', 'content-length': '7' },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
          },
        );
        req.on('error', reject);
        // The headers now, the body in packets of its own a little later.
        req.flushHeaders();
        setTimeout(() => req.write('{"a":'), 30);
        setTimeout(() => req.end('1}'), 60);
      });
      expect(answer).toEqual({ body: { a: 1 }, context: 'the request' });
    } finally {
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it('keeps serving when a client goes away in the middle of a body', async () => {
    await new Promise<void>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port,
        path: '/ours',
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'content-length': '100' },
      });
      req.on('error', () => resolve());
      req.write('{"a":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    const body = Buffer.from('{"a":1}');
    const answer = await both({ 'content-type': 'application/json', 'content-length': '7' }, body);
    expect(answer.ours).toEqual({ body: { a: 1 }, raw: body.toString('base64') });
  });
});
