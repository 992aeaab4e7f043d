import { AppError } from '../errors';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Loopback, or a Unix socket directory (a socket is always on this machine). */
export function isLocalHost(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('/');
}

export type MigrationTarget = {
  name: string;
  url: string;
  host: string;
  database: string;
  appDbPassword: string | null;
};

/**
 * Resolves `migrate --target <name>` from its own flags and environment only — never from
 * DATABASE_URL or the embedded database: the URL is `DATABASE_URL_<NAME>`, and the host and
 * database it must point at are `MIGRATE_<NAME>_HOST` and `MIGRATE_<NAME>_DATABASE` (for `local`,
 * any loopback host). A URL that points anywhere else is refused before anything connects.
 */
export function resolveMigrationTarget(
  name: string,
  env: Record<string, string | undefined> = process.env,
): MigrationTarget {
  if (!/^[a-z][a-z0-9_-]{0,30}$/.test(name))
    throw new AppError('invalid_request', `"${name}" is not a target name (lowercase letters, digits, - and _).`);
  const key = name.toUpperCase().replace(/-/g, '_');
  const raw = env[`DATABASE_URL_${key}`];
  if (!raw) throw new AppError('invalid_request', `Set DATABASE_URL_${key} to migrate the "${name}" target.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('invalid_request', `DATABASE_URL_${key} is not a URL.`);
  }
  if (!/^postgres(ql)?:$/.test(url.protocol))
    throw new AppError('invalid_request', `DATABASE_URL_${key} is not a postgresql:// URL.`);
  // libpq and node-postgres let a `host` parameter override the URL's host (a Unix socket directory
  // when it starts with "/"): the gate checks the host the client will really use.
  const host = url.searchParams.get('host') ?? url.hostname;
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const expectedHost = env[`MIGRATE_${key}_HOST`];
  const expectedDatabase = env[`MIGRATE_${key}_DATABASE`];
  if (name !== 'local' && (!expectedHost || !expectedDatabase)) {
    throw new AppError(
      'invalid_request',
      `Set MIGRATE_${key}_HOST and MIGRATE_${key}_DATABASE: the "${name}" target must say where it may point.`,
    );
  }
  if (expectedHost ? host !== expectedHost : !isLocalHost(host)) {
    throw new AppError(
      'forbidden',
      `Refusing: DATABASE_URL_${key} points at host "${host}", but the "${name}" target is ${expectedHost ? `"${expectedHost}"` : 'a loopback host'}.`,
    );
  }
  if (expectedDatabase && database !== expectedDatabase) {
    throw new AppError(
      'forbidden',
      `Refusing: DATABASE_URL_${key} names database "${database}", but the "${name}" target is "${expectedDatabase}".`,
    );
  }
  return { name, url: raw, host, database, appDbPassword: env[`APP_DB_PASSWORD_${key}`] ?? null };
}
