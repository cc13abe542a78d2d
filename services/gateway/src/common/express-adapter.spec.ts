import type { Express, Request, Response } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayExpressAdapter, releaseSentHeaders } from './express-adapter';

describe('GatewayExpressAdapter', () => {
  it('builds requests and responses with the app’s prototypes, so Express never swaps them', async () => {
    const adapter = new GatewayExpressAdapter();
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    const seen: { req: Request; res: Response; requestProto: object; responseProto: object }[] = [];
    // Before Express's own handling: the objects as Node made them.
    const server = adapter.getHttpServer() as Server;
    server.prependListener('request', (req: Request, res: Response) =>
      seen.push({
        req,
        res,
        requestProto: Object.getPrototypeOf(req),
        responseProto: Object.getPrototypeOf(res),
      }),
    );
    app.get('/hello', (req, res) => {
      res.json({ host: req.get('host'), sameApp: req.app === app && res.app === app });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/hello`);
      expect(await answer.json()).toEqual({ host: `127.0.0.1:${port}`, sameApp: true });
      const [{ req, res, requestProto, responseProto }] = seen;
      expect(requestProto).toBe(app.request);
      expect(responseProto).toBe(app.response);
      expect(Object.getPrototypeOf(req)).toBe(app.request);
      expect(req).toBeInstanceOf(IncomingMessage);
      expect(res).toBeInstanceOf(ServerResponse);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('lets go of a sent response’s headers without changing what went out', async () => {
    const received: string[] = [];
    const kept: { before: string[]; after: string[]; sent: boolean }[] = [];
    const server = new Server((req, res) => {
      res.setHeader('X-Request-Id', 'abc12345');
      releaseSentHeaders(res); // nothing sent yet: nothing let go
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      res.write('event: SUBSCRIBED_TO_SSE\ndata: {}\n\n');
      const before = res.getHeaderNames();
      releaseSentHeaders(res);
      kept.push({ before, after: res.getHeaderNames(), sent: res.headersSent });
      res.end('data: last\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/`);
      received.push(answer.headers.get('x-request-id') ?? '', answer.headers.get('content-type') ?? '');
      expect(await answer.text()).toBe('event: SUBSCRIBED_TO_SSE\ndata: {}\n\ndata: last\n\n');
      expect(received).toEqual(['abc12345', 'text/event-stream']);
      // Fails if a later Node keeps its header map under another name: the release would do nothing.
      expect(kept).toEqual([
        { before: ['x-request-id', 'content-type', 'cache-control'], after: [], sent: true },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers JSON as Express’s res.json does, byte for byte and header for header', async () => {
    const adapter = new GatewayExpressAdapter();
    adapter.initHttpServer({});
    const app = adapter.getInstance<Express>();
    app.set('etag', false);
    const answer = { voted: true, usersVoted: ['ä', '😀'], nested: [{ at: new Date(0) }] };
    app.all('/express', (_req, res) => void res.status(201).json(answer));
    app.all('/adapter', (_req, res) => void adapter.reply(res, answer, 201));
    // What the adapter leaves to Nest's reply: a Content-Type of the handler's own, and no body at all.
    app.get('/typed', (_req, res) => void adapter.reply(res.type('text/plain'), { a: 1 }, 200));
    app.get('/empty', (_req, res) => void adapter.reply(res, null, 200));
    const server = adapter.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const read = async (path: string, method = 'GET') => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { method });
        return {
          status: res.status,
          type: res.headers.get('content-type'),
          length: res.headers.get('content-length'),
          body: await res.text(),
        };
      };
      for (const method of ['GET', 'HEAD', 'PATCH']) {
        expect(await read('/adapter', method)).toEqual(await read('/express', method));
      }
      // The adapter wrote those itself: res.json ran only for the answers from /express.
      const json = jest.spyOn(app.response, 'json');
      await read('/adapter');
      expect(json).not.toHaveBeenCalled();
      expect(await read('/adapter')).toEqual({
        status: 201,
        type: 'application/json; charset=utf-8',
        length: String(Buffer.byteLength(JSON.stringify(answer))),
        body: JSON.stringify(answer),
      });
      expect(await read('/typed')).toMatchObject({ type: 'text/plain; charset=utf-8', body: '{"a":1}' });
      expect(await read('/empty')).toMatchObject({ status: 200, body: '' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
