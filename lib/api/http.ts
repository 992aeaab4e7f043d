import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { AppError, type AppErrorCode } from '../errors';
import { toDomainError } from '../db/errors';
import { withSecurityHeaders } from '../http/security-headers';
import { requestLogger, type Logger } from '../log/logger';
import { TRACE_MARKER } from '../http/trace.mjs';

/** The HTTP status of each error code: the one mapping, also what the OpenAPI document says. */
export const ERROR_STATUS: Record<AppErrorCode, number> = {
  invalid_request: 400,
  invalid_signature: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  room_unavailable: 409,
  illegal_transition: 409,
  key_revoked: 409,
  reservation_not_ready: 409,
  too_early: 409,
  desk_check_in: 409,
  registration_required: 409,
  check_in_required: 409,
  last_manager: 409,
  payment_intent_in_use: 409,
  payment_intent_invalid: 409,
  slug_taken: 409,
  payload_too_large: 413,
  rate_limited: 429,
  too_many_holds: 429,
  extension_pending: 409,
  invalid_code: 400,
  gone: 410,
  not_available: 501,
  not_supported: 409,
  unavailable: 503,
  data_key_mismatch: 500,
  internal: 500,
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** The request id set by proxy.ts (or by the caller, when well-formed), else a new one. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given && REQUEST_ID.test(given) ? given : randomUUID();
}

export function json(
  body: unknown,
  init: { status?: number; requestId: string; headers?: Record<string, string> },
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': init.requestId,
      'cache-control': 'no-store',
      ...init.headers,
    },
  });
}

/** Image bytes holding personal data (a passport): shown inline, never cached by a browser or a proxy, never sniffed. */
export function privateImage(image: { bytes: Buffer; type: string }, requestId?: string): Response {
  return new Response(new Uint8Array(image.bytes), {
    headers: {
      'content-type': image.type,
      'content-disposition': 'inline',
      'cache-control': 'no-store, private',
      'x-content-type-options': 'nosniff',
      ...(requestId ? { 'x-request-id': requestId } : {}),
    },
  });
}

/**
 * The one mapping from errors to HTTP: AppErrors keep their code and details; anything else is a
 * 500 `internal` with the request id and no stack or SQL (those go to the log).
 */
export function errorResponse(error: unknown, requestId: string, log: Logger): Response {
  const domain = toDomainError(error);
  if (domain instanceof AppError) {
    const headers: Record<string, string> = {};
    if (
      (domain.code === 'rate_limited' || domain.code === 'unavailable') &&
      typeof domain.details.retryAfter === 'number'
    ) {
      headers['retry-after'] = String(domain.details.retryAfter);
    }
    if (domain.code === 'method_not_allowed' && Array.isArray(domain.details.allow))
      headers.allow = domain.details.allow.join(', ');
    return json(
      { error: { code: domain.code, message: domain.message, ...domain.details } },
      { status: ERROR_STATUS[domain.code], requestId, headers },
    );
  }
  log.error({ err: error }, 'unhandled error');
  return json(
    { error: { code: 'internal', message: 'Something went wrong on our side.', requestId } },
    { status: 500, requestId },
  );
}

export function invalidRequest(error: z.ZodError): AppError {
  return new AppError('invalid_request', 'The request is not valid.', {
    issues: error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message, code: issue.code })),
  });
}

export type RequestContext = { request: Request; requestId: string; log: Logger };

/** Wraps a route handler: request id on the response and the log, errors mapped in one place. */
export function withRequest<P>(handler: (ctx: RequestContext, params: P) => Promise<Response>) {
  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    const requestId = requestIdOf(request);
    const log = requestLogger(requestId);
    try {
      const response = await handler({ request, requestId, log }, await route.params);
      response.headers.set('x-request-id', requestId);
      return withSecurityHeaders(response);
    } catch (error) {
      return withSecurityHeaders(errorResponse(error, requestId, log));
    }
  };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

/** The same handler for every method: `export const { GET, POST, … } = forEveryMethod(handler)`. */
function forEveryMethod(handler: ReturnType<typeof withRequest>): Record<Method, ReturnType<typeof withRequest>> {
  return Object.fromEntries(METHODS.map((method) => [method, handler])) as Record<
    Method,
    ReturnType<typeof withRequest>
  >;
}

/** The refusal of a method an address does not serve: 405 `method_not_allowed`, `Allow` listing what it does. */
export function methodNotAllowed(allow: readonly string[]): AppError {
  return new AppError('method_not_allowed', `This address accepts ${allow.join(', ')}.`, { allow: [...allow] });
}

/** The methods an address answers, as `Allow` lists them: its own, HEAD where GET is, and OPTIONS. */
export function allowedMethods(methods: readonly string[]): string[] {
  const all = new Set(methods);
  if (all.has('GET')) all.add('HEAD');
  all.add('OPTIONS');
  return [...all];
}

/**
 * The answer to OPTIONS at an address serving `methods`: 204 with `Allow` listing exactly what it
 * serves, and a request id. A TRACE (an OPTIONS the web server marked) is 405 with the same `Allow`.
 */
export function optionsResponse(request: Request, methods: readonly string[], requestId: string, log: Logger) {
  const allow = allowedMethods(methods);
  if (request.headers.get(TRACE_MARKER) === '1') return errorResponse(methodNotAllowed(allow), requestId, log);
  return new Response(null, { status: 204, headers: { allow: allow.join(', '), 'x-request-id': requestId } });
}

/** The refusal of an address nothing serves: 404 `not_found`. */
export function addressNotFound(): AppError {
  return new AppError('not_found', 'There is nothing at this address.');
}

/**
 * Handlers for the methods a route does not serve (export the ones it lacks): 405
 * `method_not_allowed` with `Allow`, answered like every other error — with a request id. The
 * Next.js routes beside the router (/api/auth, /api/health, /api/ping) need them: Next.js's own 405
 * has neither a body nor a request id. The router refuses its own (lib/api/router.ts).
 */
export function methodsNotAllowed(allow: readonly Method[]) {
  const refuse = withRequest(async () => {
    throw methodNotAllowed(allow);
  });
  // OPTIONS lists what the route serves (Next.js's own answer would list these refusers too).
  const options = withRequest(async ({ request, requestId, log }) => optionsResponse(request, allow, requestId, log));
  return {
    ...forEveryMethod(Object.assign(refuse, { [NOT_SERVED]: true })),
    OPTIONS: Object.assign(options, { [NOT_SERVED]: true }),
  };
}

/** Marks a route export that only refuses its method (methodsNotAllowed): the route does not serve it. */
export const NOT_SERVED = Symbol.for('unlockos.notServed');

/** Whether a route module's export for a method serves it (and is not a 405 from methodsNotAllowed). */
export function servesMethod(handler: unknown): boolean {
  return typeof handler === 'function' && !(handler as unknown as Record<symbol, unknown>)[NOT_SERVED];
}
