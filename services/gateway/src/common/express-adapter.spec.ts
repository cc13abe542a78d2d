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
});
