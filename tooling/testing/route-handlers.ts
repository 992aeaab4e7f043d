import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { routeFile, type RouteSpec } from '../../lib/api/routes';
import { servesMethod } from '../../lib/api/http';

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** The exported handler of a listed route, loaded from its file under app/api/v1. */
export async function handlerOf(spec: RouteSpec): Promise<Handler> {
  const file = path.resolve(routeFile(spec));
  if (!existsSync(file)) throw new Error(`route file missing for ${spec.method} ${spec.path}: ${file}`);
  const routeModule = (await import(file)) as Record<string, Handler>;
  const handler = routeModule[spec.method];
  if (!handler) throw new Error(`${file} exports no ${spec.method}`);
  return handler;
}

/** Every route file below app/api/v1, as `METHOD /path` strings. */
export async function routeFilesOnDisk(): Promise<string[]> {
  const root = path.resolve('app/api/v1');
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) await walk(full);
      else if (entry === 'route.ts') {
        const routePath = path
          .relative(root, dir)
          .split(path.sep)
          .map((s) => s.replace(/^\[(\w+)\]$/, '{$1}'));
        const routeModule = (await import(full)) as Record<string, unknown>;
        for (const method of ['GET', 'POST', 'DELETE', 'PUT', 'PATCH'])
          if (servesMethod(routeModule[method])) found.push(`${method} /${routePath.join('/')}`);
      }
    }
  };
  await walk(root);
  return found.sort();
}
