import { NextResponse, type NextRequest } from 'next/server';
import { errorResponse, methodNotAllowed } from './lib/api/http';
import { AppError } from './lib/errors';
import { withSecurityHeaders } from './lib/http/security-headers';
import { TRACE_MARKER } from './lib/http/trace.mjs';
import { requestLogger } from './lib/log/logger';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Every response gets an `x-request-id` (the caller's when well-formed, else a new one, also
 * passed on to the handler), a nonce-based Content-Security-Policy, and Strict-Transport-Security
 * when APP_URL is https (decided at run time, not at build time). Below /api it sees only sign-in
 * (/api/auth): everything else there is the router's or a route's that answers every method and
 * address itself (lib/api/router.ts; see `config` below).
 */
export function proxy(request: NextRequest) {
  const given = request.headers.get('x-request-id');
  const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  const { pathname } = request.nextUrl;
  const refuse = (error: AppError) => withSecurityHeaders(errorResponse(error, requestId, requestLogger(requestId)));
  // Sign-in's route (/api/auth) answers the methods it does not serve, OPTIONS and TRACE itself (methodsNotAllowed).
  const page = !pathname.startsWith('/api/');
  if (page && request.headers.get(TRACE_MARKER) === '1') return refuse(methodNotAllowed(['GET', 'HEAD']));
  if (page && isForeignServerAction(request))
    return refuse(new AppError('forbidden', 'This form was sent from another site.'));
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

// Below /api the proxy sees only sign-in (/api/auth/…). The router's addresses (lib/api/router.ts:
// /api/v1, /api/webhooks, /api/guest, and a JSON 404 for anything else below /api), /api/health and
// /api/ping answer every method and address themselves, with a request id (withRequest,
// methodsNotAllowed), and their JSON needs no nonce: skipping the proxy spares every API call and
// webhook a copy of its body and a third of its time (docs/PERFORMANCE.md, API call throughput).
export const config = {
  matcher: [{ source: '/((?!_next/static|_next/image|favicon.ico|api$|api/(?!auth/)).*)' }],
};
