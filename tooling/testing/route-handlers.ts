import type { RouteSpec } from '../../lib/api/routes';
import { routeHandler, type RouteHandler } from '../../lib/api/router';

/** The router's handler of a listed /api/v1 route (lib/api/routes.ts), called directly with its path parameters. */
export async function handlerOf(spec: RouteSpec): Promise<RouteHandler> {
  return routeHandler(spec.method, `/api/v1${spec.path}`);
}
