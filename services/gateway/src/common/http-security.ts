import { MESSAGES } from '@forkvote/contracts';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { urlencoded } from 'express';
import helmet, { strictTransportSecurity, xContentTypeOptions } from 'helmet';
import { GatewayConfig } from '../gateway.config';

const RECAPTCHA = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];

/** A room's event stream (`GET /api/v1/waiting-room/events/:waitingRoomId`). */
const EVENT_STREAM = /^\/api\/v1\/waiting-room\/events\/[^/]+$/;

/**
 * Security headers on every answer (API, web app, local checkout pages, docs), by helmet. The CSP allows
 * scripts only from this origin and reCAPTCHA; styles may be inline because antd writes its CSS-in-JS into
 * <style> tags at run time and the local checkout pages carry their own. No page may be framed.
 *
 * An event stream is no document: framing, scripts and referrers mean nothing to it, and a response keeps
 * its headers for as long as it is open (hours, times every open stream). It gets nosniff and, in
 * production, HSTS; nothing else.
 */
export function securityHeaders(config: GatewayConfig): RequestHandler {
  const { documents, streams } = securityHelmets(config);
  return (req, res, next) =>
    req.method === 'GET' && EVENT_STREAM.test(req.path) ? streams(req, res, next) : documents(req, res, next);
}

/**
 * An API answer may depend on the caller's cookie or bearer token: no cache, the browser's or a proxy's,
 * keeps one. A route whose answer is the same for everyone (a place's photo) says so itself.
 */
export function apiAnswersNoStore(): RequestHandler {
  return (req, res, next) => {
    if (req.path.startsWith('/api/')) res.setHeader('Cache-Control', 'no-store');
    next();
  };
}

/** The helmet middleware for documents and for event streams. */
function securityHelmets(config: GatewayConfig): {
  documents: RequestHandler;
  streams: RequestHandler;
} {
  const production = config.NODE_ENV === 'production';
  const hsts = { maxAge: 31_536_000, includeSubDomains: true };
  const documents = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...RECAPTCHA],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...RECAPTCHA],
        frameSrc: RECAPTCHA,
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // Only where the product is served over https: on http://localhost it would break every asset.
        ...(production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // 'same-origin' keeps the reset token in /reset-password?token=… from leaking to other sites, and, unlike
    // 'no-referrer', still lets the browser send Origin on our own POSTs, which the CSRF check reads.
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: production ? hsts : false,
    xFrameOptions: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  const noSniff = xContentTypeOptions();
  const transportSecurity = strictTransportSecurity(hsts);
  const streams: RequestHandler = production
    ? (req, res, next) => noSniff(req, res, () => transportSecurity(req, res, next))
    : (req, res, next) => noSniff(req, res, next);
  return { documents, streams };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The local test-mode checkout and portal pages post plain HTML forms, as Stripe's own pages would: the only
 * routes that take a form body (routing is case-sensitive, so these spellings are the only ones that match).
 */
const FORM_POSTS = [
  /^\/api\/v1\/billing\/checkout\/[^/]+\/(complete|cancel)$/,
  /^\/api\/v1\/billing\/portal\/cancel$/,
];
/** Server to server (Stripe), authenticated by its signature; no browser sends it. */
const SIGNED_WEBHOOK = '/api/v1/billing/webhook';

const isFormPost = (req: Request) => req.method === 'POST' && FORM_POSTS.some((path) => path.test(req.path));

/** Parses a form body on the form-post routes only; every other route reads JSON alone. */
export function formBodyOnFormPosts(): RequestHandler {
  const parse = urlencoded({ limit: '1kb', extended: false });
  return (req, res, next) => (isFormPost(req) ? parse(req, res, next) : next());
}

/**
 * CSRF defence for every state-changing request, whatever its path or its spelling, before any body is
 * parsed (the threat model in docs/architecture.md says what it assumes):
 * - the request must come from the product's own origin (PUBLIC_URL): a browser's Origin header, or for
 *   a browser that sends none, a Sec-Fetch-Site that is not cross-site. Clients that send neither (curl,
 *   k6, service tests) are no browser and carry no ambient cookie to abuse;
 * - a body must be JSON, which no cross-site form can send without a CORS preflight we never allow; the
 *   local checkout pages' form posts are the one exception.
 * Outside production the gateway's own address counts as its origin too, so a test stack on a random
 * port or 127.0.0.1 in place of localhost works as it is.
 */
export function requestOriginGuard(config: GatewayConfig): RequestHandler {
  const production = config.NODE_ENV === 'production';
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || req.path === SIGNED_WEBHOOK) return next();
    const origin = req.headers.origin;
    const fetchSite = req.headers['sec-fetch-site'];
    const sameOrigin =
      origin === undefined
        ? fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none'
        : origin === config.publicOrigin ||
          (!production && origin === `${req.protocol}://${req.get('host')}`);
    if (!sameOrigin) return refuse(res, 403, MESSAGES.crossOrigin);
    if (!isFormPost(req) && carriesBody(req) && !req.is('application/json'))
      return refuse(res, 415, MESSAGES.jsonOnly);
    next();
  };
}

function carriesBody(req: Request): boolean {
  return (
    req.headers['content-type'] !== undefined ||
    req.headers['transfer-encoding'] !== undefined ||
    Number(req.headers['content-length'] ?? 0) > 0
  );
}

function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ statusCode: status, message, error: message });
}
