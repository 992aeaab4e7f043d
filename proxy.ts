import { NextResponse, type NextRequest } from 'next/server';
import { apiMethods, apiRefusal } from './lib/api/api-addresses';
import { errorResponse, methodNotAllowed, optionsResponse } from './lib/api/http';
import { AppError } from './lib/errors';
import { withSecurityHeaders } from './lib/http/security-headers';
import { TRACE_MARKER } from './lib/http/trace.mjs';
import { requestLogger } from './lib/log/logger';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Every response gets an `x-request-id` (the caller's when well-formed, else a new one, also
 * passed on to the handler), a nonce-based Content-Security-Policy, and Strict-Transport-Security
 * when APP_URL is https (decided at run time, not at build time). Below /api, an address no route
 * serves answers like the API: a JSON 404 `not_found`, or 405 `method_not_allowed` with `Allow`
 * (lib/api/api-addresses.ts), never the HTML pages Next.js would send.
 */
export function proxy(request: NextRequest) {
  const given = request.headers.get('x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  const { pathname } = request.nextUrl;
  const refuse = (error: AppError) => withSecurityHeaders(errorResponse(error, requestId, requestLogger(requestId)));
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    const methods = request.method === 'OPTIONS' ? apiMethods(pathname) : null;
    if (methods) return withSecurityHeaders(optionsResponse(request, methods, requestId, requestLogger(requestId)));
    const refusal = apiRefusal(request.method, pathname);
    if (refusal) return refuse(refusal);
  } else if (request.headers.get(TRACE_MARKER) === '1') {
    return refuse(methodNotAllowed(['GET', 'HEAD']));
  } else if (isForeignServerAction(request)) {
    return refuse(new AppError('forbidden', 'This form was sent from another site.'));
  }
  const nonce = Buffer.from(crypto.randomUUID()).toString('base64');
  const csp = [
    "default-src 'self'",
    // React's development build evaluates code for its debugging aids; production never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${process.env.NODE_ENV === 'production' ? '' : " 'unsafe-eval'"}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

  const headers = new Headers(request.headers);
  headers.set('x-request-id', requestId);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('x-request-id', requestId);
  response.headers.set('content-security-policy', csp);
  return withSecurityHeaders(response);
}

/**
 * A server action (a POST naming one, or a form posted to a page) whose Origin is not this site: Next.js
 * refuses it by throwing, which answers 500. The same test as Next.js's own (its action handler): the
 * Origin's host against the first X-Forwarded-Host, else Host; a request without Origin passes (no
 * browser sends credentials without one), as it does in Next.js.
 */
function isForeignServerAction(request: NextRequest): boolean {
  if (request.method !== 'POST') return false;
  const type = request.headers.get('content-type') ?? '';
  if (!request.headers.has('next-action') && !type.startsWith('multipart/form-data')) return false;
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  let originHost = 'null';
  if (origin !== 'null') {
    try {
      originHost = new URL(origin).host;
    } catch {
      return true;
    }
  }
  const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim() || request.headers.get('host');
  return originHost !== host;
}

// The webhook routes, the API's three hottest addresses (GET /api/v1/rooms, GET /api/v1/reservations,
// POST /api/v1/check-ins/{id}/key), the guest page's status poll and the benchmark's empty route skip
// the proxy, which would copy every request body once more and cost an API call a third of its time
// (docs/PERFORMANCE.md, API call throughput): they answer every method and address themselves,
// with a request id (withRequest, methodsNotAllowed, app/api/webhooks/[...rest]), and their JSON
// needs no CSP.
export const config = {
  matcher: [
    {
      source:
        '/((?!_next/static|_next/image|favicon.ico|api/webhooks/|api/ping$|api/v1/rooms$|api/v1/reservations$|api/v1/check-ins/[^/]+/key$|api/guest/[^/]+/status$).*)',
    },
  ],
};
