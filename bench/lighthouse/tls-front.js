// @ts-check
/**
 * What stands between a phone and the gateway in production: an ingress that ends TLS and speaks HTTP/2
 * (browsers use brotli and multiplex requests only over HTTPS). A self-signed certificate, made here with
 * openssl for 127.0.0.1, which the bench's Chromium is told to accept.
 */
'use strict';
const { selfSignedCertificate } = require('@forkvote/testing/src/fixtures');
const http = require('node:http');
const http2 = require('node:http2');

/** Headers HTTP/2 forbids or that belong to one hop only. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

/** Serves https://127.0.0.1:<port> over HTTP/2, passing each request on to `target` (http://host:port). */
async function startTlsFront(target, port = 0) {
  const upstream = new URL(target);
  const server = http2.createSecureServer({ ...selfSignedCertificate(), allowHTTP1: true }, (req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (!name.startsWith(':') && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    headers.host = upstream.host;
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
      (answer) => {
        const back = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (!HOP_BY_HOP.has(name)) back[name] = value;
        res.writeHead(answer.statusCode ?? 502, back);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `https://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

module.exports = { startTlsFront };
