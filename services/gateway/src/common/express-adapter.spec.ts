import type { Express, Request, Response } from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayExpressAdapter } from './express-adapter';

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
});
