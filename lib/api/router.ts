import { Hono } from 'hono';
import { getGuestKey, getGuestStatus } from '../guests/get-guest-key';
import { checkInAsGuest } from '../guests/guest-check-in';
import { checkOutAsGuest } from '../guests/guest-check-out';
import { guestKeyLimit, guestRegistrationLimit, guestStatusLimit } from '../guests/guest-rate-limits';
import { putGuestRegistration } from '../guests/guest-register';
import { ZRegistrationBodySchema } from '../registration/registration-input';
import { REGISTRATION_BODY_BYTES } from '../http/body-limit.mjs';
import { bodySlotOf } from '../http/upload-slots';
import { postGuestMessage, reportCodeProblem, ZGuestMessageBodySchema } from '../guests/guest-help';
import { readJson } from './body';
import { clientAddress } from '../http/client-address';
import { extendAsGuest } from '../guests/guest-extension';
import { ZExtensionBodySchema } from '../stays/extend-stay';
import { etagOf, matchesIfNoneMatch } from '../http/etag';
import { AppError } from '../errors';
import { PUBLIC_BOOKING_ROUTES } from './public-routes';
import { receiveAcuityWebhook, receiveCalendlyWebhook, receiveCalWebhook } from '../webhooks/receive-booking-provider';
import { receiveSeamWebhook } from '../webhooks/seam/receive';
import { receiveStripeWebhook } from '../webhooks/stripe/receive';
import { readRawBody } from '../http/body';
import { ROUTER_PREFIXES } from './router-prefixes.mjs';
import { addressNotFound, json, methodNotAllowed, optionsResponse, withRequest } from './http';
import { openApiDocument } from './openapi';
import { API_ROUTES } from './routes';
import { withApiKey } from './with-api-key';

// The one routing table for machine traffic (decision 023): /api/v1, /api/webhooks, /api/guest and /api/public
// are served by this Hono router, mounted in one Next.js catch-all route handler
// (app/api/[[...route]]/route.ts) and called by the production web server's fast lane through the
// same `fetch` (scripts/web-server.mjs). Its addresses answer every method themselves: a method an
// address does not serve is 405 with `Allow`, OPTIONS lists what it serves, an address nothing
// serves is a JSON 404 — all with a request id, like every other answer.

/** A route handler: the request and its path parameters in, the answer out (request id, errors and headers included). */
export type RouteHandler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type RouterMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type RouterRoute = {
  method: RouterMethod;
  /** From the site root, OpenAPI style: `/api/v1/reservations/{id}`. */
  path: string;
  handler: RouteHandler;
};

export { ROUTER_PREFIXES };

const webhookReply = (duplicate: boolean, requestId: string) => json({ received: true, duplicate }, { requestId });

/** The routes outside /api/v1's listed ones (lib/api/routes.ts): the document, the guest page's, the providers'. */
const OTHER_ROUTES: RouterRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/openapi.json',
    // The server in the document is relative (/api/v1): read from this address, it is this address's API.
    handler: withRequest(async ({ requestId }) =>
      json(openApiDocument(), { requestId, headers: { 'cache-control': 'public, max-age=300' } }),
    ),
  },
  {
    method: 'POST',
    path: '/api/guest/{token}/key',
    /** The key a guest link opens; the rate limit is counted in the link's read (one round trip). */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) =>
      json({ data: await getGuestKey(token!, guestKeyLimit(token!, clientAddress(request))) }, { requestId }),
    ),
  },
  {
    method: 'POST',
    path: '/api/guest/{token}/check-in',
    /** The guest's own check-in (a self check-in facility): the key, the same one again; counted with the key endpoint. */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) =>
      json({ data: await checkInAsGuest(token!, guestKeyLimit(token!, clientAddress(request))) }, { requestId }),
    ),
  },
  {
    method: 'POST',
    path: '/api/guest/{token}/check-out',
    /** The guest's early check-out: the stay ends now, its keys revoked; again → the same answer. */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) =>
      json({ data: await checkOutAsGuest(token!, guestKeyLimit(token!, clientAddress(request))) }, { requestId }),
    ),
  },
  {
    method: 'GET',
    path: '/api/guest/{token}/status',
    /** The open key page's poll: the stay and its key, read only, its rate limit counted in the same round trip; 304 when nothing changed since the page's ETag. */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) => {
      const status = await getGuestStatus(token!, { limit: guestStatusLimit(token!, clientAddress(request)) });
      if (!status) throw new AppError('not_found', 'This key link is unknown or has expired.');
      const body = { data: status };
      const etag = etagOf(JSON.stringify(body));
      if (matchesIfNoneMatch(request, etag)) {
        return new Response(null, { status: 304, headers: { etag, 'cache-control': 'no-store' } });
      }
      return json(body, { requestId, headers: { etag } });
    }),
  },
  {
    method: 'PUT',
    path: '/api/guest/{token}/registration',
    /**
     * The stay's guest register (Japan's lodging law), replaced whole; passport photos make its body large, so it
     * is read, with its own limit, only for a live link whose request the rate limit allowed, within the process's
     * budget for large bodies.
     */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) => {
      const data = await putGuestRegistration({
        token: token!,
        limit: guestRegistrationLimit(token!, clientAddress(request)),
        readBody: () => readJson(request, ZRegistrationBodySchema, { limit: REGISTRATION_BODY_BYTES }),
        slot: bodySlotOf(request, REGISTRATION_BODY_BYTES),
      });
      return json({ data }, { requestId });
    }),
  },
  {
    method: 'POST',
    path: '/api/guest/{token}/extension',
    /** A later end of the link's stay (decision 029), counted against the key endpoint's limit for the link. */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) => {
      const body = await readJson(request, ZExtensionBodySchema);
      const data = await extendAsGuest(token!, body, guestKeyLimit(token!, clientAddress(request)));
      return json({ data }, { requestId });
    }),
  },
  {
    method: 'POST',
    path: '/api/guest/{token}/messages',
    /** A guest's message to the desk (1–2000 characters): on the reservation's timeline and the desk's day. */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) => {
      const { body } = await readJson(request, ZGuestMessageBodySchema);
      const data = await postGuestMessage({ token: token!, clientAddress: clientAddress(request), body });
      return json({ data }, { requestId, status: 201 });
    }),
  },
  {
    method: 'POST',
    path: '/api/guest/{token}/code-problem',
    /** "My code does not work": the desk told at once (one report per five minutes), a backup code where a pool exists. */
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { token }) =>
      json({ data: await reportCodeProblem({ token: token!, clientAddress: clientAddress(request) }) }, { requestId }),
    ),
  },
  {
    method: 'POST',
    path: '/api/webhooks/stripe',
    handler: withRequest(async ({ request, requestId }) => {
      const raw = await readRawBody(request);
      const { duplicate } = await receiveStripeWebhook(raw, request.headers.get('stripe-signature'));
      return webhookReply(duplicate, requestId);
    }),
  },
  {
    method: 'POST',
    path: '/api/webhooks/calendly/{tenantId}',
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { tenantId }) => {
      const raw = await readRawBody(request);
      const { duplicate } = await receiveCalendlyWebhook({
        tenantIdParam: tenantId!,
        raw,
        signature: request.headers.get('calendly-webhook-signature'),
      });
      return webhookReply(duplicate, requestId);
    }),
  },
  {
    method: 'POST',
    path: '/api/webhooks/cal/{tenantId}',
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { tenantId }) => {
      const raw = await readRawBody(request);
      const { duplicate } = await receiveCalWebhook({
        tenantIdParam: tenantId!,
        raw,
        signature: request.headers.get('x-cal-signature-256'),
      });
      return webhookReply(duplicate, requestId);
    }),
  },
  {
    method: 'POST',
    path: '/api/webhooks/acuity/{tenantId}',
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { tenantId }) => {
      const raw = await readRawBody(request);
      const { duplicate } = await receiveAcuityWebhook({
        tenantIdParam: tenantId!,
        raw,
        signature: request.headers.get('x-acuity-signature'),
      });
      return webhookReply(duplicate, requestId);
    }),
  },
  {
    method: 'POST',
    path: '/api/webhooks/seam/{tenantId}',
    handler: withRequest<Record<string, string>>(async ({ request, requestId }, { tenantId }) => {
      const raw = await readRawBody(request);
      const { duplicate } = await receiveSeamWebhook({
        tenantIdParam: tenantId!,
        raw,
        headers: {
          id: request.headers.get('svix-id'),
          timestamp: request.headers.get('svix-timestamp'),
          signature: request.headers.get('svix-signature'),
        },
      });
      return webhookReply(duplicate, requestId);
    }),
  },
];

/** Every route the router serves: /api/v1's from its list (each behind its API key), then the others. */
export const ROUTER_ROUTES: readonly RouterRoute[] = [
  ...API_ROUTES.map((spec): RouterRoute => ({
    method: spec.method,
    path: `/api/v1${spec.path}`,
    handler: withApiKey<{ id: string }>(spec.handler, {
      keyCheckedInTransaction: spec.keyCheckedInTransaction,
    }) as RouteHandler,
  })),
  ...OTHER_ROUTES,
  ...PUBLIC_BOOKING_ROUTES,
];

/** The handler of a method at a path, as listed (`/api/v1/reservations/{id}`): what tests call directly. */
export function routeHandler(method: RouterMethod, path: string): RouteHandler {
  const route = ROUTER_ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route serves ${method} ${path}`);
  return route.handler;
}

/**
 * The Content-Security-Policy of the router's answers: JSON, which loads nothing and is framed
 * nowhere (pages get the proxy's nonce-based policy).
 */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** `/api/v1/reservations/{id}` → Hono's `/api/v1/reservations/:id`. */
const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The router: the listed routes, and for each address its 405s, OPTIONS and TRACE answers; a JSON 404 elsewhere. */
export function buildRouter(routes: readonly RouterRoute[] = ROUTER_ROUTES): Hono {
  const app = new Hono({ strict: true });
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('content-security-policy', API_CSP);
  });
  const byPath = new Map<string, RouterRoute[]>();
  for (const route of routes) byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  for (const [path, served] of byPath) {
    const pattern = honoPath(path);
    const methods = served.map((r) => r.method);
    for (const route of served)
      app.on(route.method, pattern, (c) => route.handler(c.req.raw, { params: Promise.resolve(c.req.param()) }));
    // OPTIONS lists what the address serves; a TRACE (an OPTIONS the web server marked) is 405 with the same Allow.
    const options = withRequest(async ({ request, requestId, log }) =>
      optionsResponse(request, methods, requestId, log),
    );
    app.options(pattern, (c) => options(c.req.raw, { params: Promise.resolve({}) }));
    // Every other method (HEAD is GET's where the address serves GET: Hono answers it so).
    const refuse = withRequest(async () => {
      throw methodNotAllowed(methods);
    });
    app.all(pattern, (c) => refuse(c.req.raw, { params: Promise.resolve({}) }));
  }
  const notFound = withRequest(async () => {
    throw addressNotFound();
  });
  app.notFound((c) => notFound(c.req.raw, { params: Promise.resolve({}) }));
  return app;
}

/** This process's router. */
export const apiRouter = buildRouter();

/** Answers a request below the router's prefixes: Hono's documented `fetch`. */
export const apiFetch = async (request: Request): Promise<Response> => apiRouter.fetch(request);
