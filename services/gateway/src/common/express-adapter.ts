import { NestApplicationOptions, StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, Response as ExpressResponse } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/**
 * Express gives each request and response its prototype as it arrives (`Object.setPrototypeOf` in
 * `app.handle`), and V8 shares no hidden class built after a prototype change: every property Express, the
 * middleware and Nest then add makes a new one. That is some twenty maps made per request, and two kept
 * (about 2 KB) for as long as an event stream stays open. Here Node builds requests and responses as
 * instances of classes whose prototypes are the app's, so Express's own `setPrototypeOf` changes nothing
 * and every request shares the same hidden classes.
 */
export class GatewayExpressAdapter extends ExpressAdapter {
  /** The server's timeouts for reading a request (GatewayConfig's HEADERS_ and REQUEST_TIMEOUT_MS). */
  constructor(
    instance?: Express,
    private readonly timeouts: { headersTimeout?: number; requestTimeout?: number } = {},
  ) {
    super(instance);
  }

  override initHttpServer(options: NestApplicationOptions): void {
    // TLS ends before the gateway (at the ingress); the plain server is the one this is for.
    if (options.httpsOptions || options.forceCloseConnections) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    const Request = classWithPrototypeOf(IncomingMessage, app.request);
    const Response = classWithPrototypeOf(ServerResponse, app.response);
    app.request = Request.prototype as Express['request'];
    app.response = Response.prototype as Express['response'];
    this.setHttpServer(
      createServer(
        {
          IncomingMessage: Request,
          ServerResponse: Response,
          ...this.timeouts,
          // Node checks the timeouts above this often (30 s by default, which would double a short one).
          connectionsCheckingInterval: 1000,
        },
        app,
      ),
    );
  }

  /**
   * A handler's answer, written as Express's `res.json` writes it: the same bytes (`JSON.stringify`, as the
   * app sets no JSON replacer, spaces or escaping), `Content-Type: application/json; charset=utf-8` and
   * `Content-Length`, no ETag (the app turns them off), no body for HEAD. Without the trip through
   * `res.json` and `res.send`, which for every answer read four app settings, look the type up in the MIME
   * table and parse back the Content-Type it has just set to add the charset: 16 µs of a 40 µs response in
   * bare Express on the project's machine (bench/README.md, ninth pass).
   *
   * Anything else goes to Nest's own reply: no body, a file, an Error, text, a Content-Type the handler
   * chose, or a status that carries no body.
   */
  override reply(response: ExpressResponse, body: unknown, statusCode?: number): unknown {
    const status = statusCode ?? response.statusCode;
    if (
      typeof body !== 'object' ||
      body === null ||
      body instanceof StreamableFile ||
      body instanceof Error ||
      ArrayBuffer.isView(body) ||
      response.getHeader('Content-Type') !== undefined ||
      status === 204 ||
      status === 205 ||
      status === 304
    ) {
      return super.reply(response, body, statusCode) as unknown;
    }
    // Undefined only when a toJSON answers undefined: Express then sends no body, as Nest's reply does.
    const json = JSON.stringify(body) as string | undefined;
    if (json === undefined) return super.reply(response, body, statusCode) as unknown;
    if (statusCode) response.status(statusCode);
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    return response.req.method === 'HEAD' ? response.end() : response.end(json);
  }
}

/**
 * A subclass of Node's class standing in for Express's prototype object: the same chain and the same own
 * properties (`app`). A class, not a function with `prototype` assigned, because V8 sizes a derived class's
 * objects from its base's constructor; objects of a bare function outgrow their fast layout and turn into
 * dictionaries.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TypeScript's form for a class to extend
function classWithPrototypeOf<T extends new (...args: any[]) => object>(
  base: T,
  expressPrototype: object,
): T {
  const Derived = class extends base {};
  Object.setPrototypeOf(Derived.prototype, Object.getPrototypeOf(expressPrototype) as object);
  Object.defineProperties(Derived.prototype, Object.getOwnPropertyDescriptors(expressPrototype));
  return Derived;
}

/** Where Node keeps a response's headers (a map of `[name, value]` pairs) from the first `setHeader` on. */
const OUT_HEADERS = Object.getOwnPropertySymbols(new ServerResponse(new IncomingMessage(new Socket()))).find(
  (symbol) => symbol.description === 'kOutHeaders',
);

/**
 * Lets go of what Node keeps of a response's headers once they are sent, for a response that stays open
 * for hours (an event stream): about 1.5 KB each, more than anything else such a response holds.
 *
 * - The header block: Node keeps it as it built it, line by line, a tree of some thirty joined strings
 *   (about 1 KB) where one string of the same text holds 0.4 KB. Reading one of its characters makes V8
 *   join the tree into that one string, in place. Past this point Node only asks whether there is one.
 * - The header map: after the headers are sent only `getHeader()` and its kind read it; nothing reads a
 *   stream's. (Node empties the map the same way when the deprecated `_headers` is set to null.)
 *
 * Both are Node's own fields: if a later Node names them differently this does nothing, and the adapter's
 * test says so.
 */
export function releaseSentHeaders(res: ServerResponse): void {
  if (!res.headersSent) return;
  const held = res as unknown as { _header?: unknown } & Record<symbol, unknown>;
  if (typeof held._header === 'string') held._header.charCodeAt(0);
  if (OUT_HEADERS) held[OUT_HEADERS] = null;
}
