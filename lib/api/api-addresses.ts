import type { AppError } from '../errors';
import { addressNotFound, methodNotAllowed } from './http';
import { API_ROUTES } from './routes';

export type ApiAddress = {
  /** OpenAPI style, from the site root: `/api/guest/{token}/key`; `{...name}` matches the rest of the path. */
  path: string;
  methods: readonly string[];
};

/**
 * The addresses below /api that the proxy sees, outside the listed /api/v1 routes. The webhook
 * routes and /api/ping skip the proxy and answer unknown methods and addresses themselves
 * (`methodsNotAllowed`, `notFoundHandlers`). A test fails when a route file and this list disagree.
 */
export const OTHER_API_ADDRESSES: readonly ApiAddress[] = [
  { path: '/api/v1/openapi.json', methods: ['GET'] },
  { path: '/api/health', methods: ['GET'] },
  { path: '/api/guest/{token}/key', methods: ['POST'] },
  { path: '/api/guest/{token}/status', methods: ['GET'] },
  { path: '/api/auth/{...nextauth}', methods: ['GET', 'POST'] },
];

/** Every address the proxy lets through to a route handler, with the methods that handler exports. */
export function apiAddresses(): ApiAddress[] {
  const byPath = new Map<string, string[]>();
  for (const route of API_ROUTES) {
    const path = `/api/v1${route.path}`;
    byPath.set(path, [...(byPath.get(path) ?? []), route.method]);
  }
  for (const address of OTHER_API_ADDRESSES) byPath.set(address.path, [...address.methods]);
  return [...byPath].map(([path, methods]) => ({ path, methods }));
}

function pattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (/^\{\.\.\.\w+\}$/.test(segment)) return '.+';
      if (/^\{\w+\}$/.test(segment)) return '[^/]+';
      return segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

let compiled: { pattern: RegExp; literal: number; methods: readonly string[] }[] | null = null;

function routes() {
  compiled ??= apiAddresses()
    .map(({ path, methods }) => ({
      pattern: pattern(path),
      // Next.js prefers the route with more fixed segments: `/reservations/{id}` never hides `/reservations`.
      literal: path.split('/').filter((s) => s && !s.startsWith('{')).length,
      methods,
    }))
    .sort((a, b) => b.literal - a.literal);
  return compiled;
}

/** The methods the route at `pathname` (below /api) exports; null when no route is there. */
export function apiMethods(pathname: string): readonly string[] | null {
  return routes().find((r) => r.pattern.test(pathname))?.methods ?? null;
}

/**
 * Why the API does not serve `method` at `pathname` (below /api): 404 `not_found` when no route
 * is there, 405 `method_not_allowed` with the route's methods when it does not export that one;
 * null when a route handler serves it. HEAD is served wherever GET is, and OPTIONS everywhere a
 * route is (Next.js answers both itself).
 */
export function apiRefusal(method: string, pathname: string): AppError | null {
  const route = routes().find((r) => r.pattern.test(pathname));
  if (!route) return addressNotFound();
  const served = method === 'OPTIONS' || route.methods.includes(method === 'HEAD' ? 'GET' : method);
  return served ? null : methodNotAllowed(route.methods);
}
