import { z } from 'zod';
import { AppError } from '../errors';
import { endpointProblem, type EndpointProblem } from '../http/outbound-fetch';
import { accountIdentity } from './lock-account';

/** What a tenant's `ttlock` secret holds: its open-platform app and account (JSON). */
export const ZTtlockCredentialsSchema = z
  .object({
    clientId: z.string().min(1).max(200),
    clientSecret: z.string().min(1).max(500),
    username: z.string().min(1).max(200),
    password: z.string().min(1).max(500),
    endpoint: z.string().min(1).max(500).optional(),
  })
  .strict();
export type TTtlockCredentials = z.infer<typeof ZTtlockCredentialsSchema>;

/** The API base a tenant's TTLock credentials reach: their endpoint, else TTLOCK_ENDPOINT, else TTLock's EU cloud. */
export function ttlockBaseUrl(credentials: Pick<TTtlockCredentials, 'endpoint'>): string {
  return (credentials.endpoint ?? process.env.TTLOCK_ENDPOINT ?? 'https://euapi.ttlock.com').replace(/\/+$/, '');
}

/**
 * The account identity of TTLock credentials: the platform (the endpoint's origin — lock ids are
 * TTLock's per platform) and the TTLock account that owns the locks (its username). Not the client
 * id: one account's locks are the same through any app.
 */
export function ttlockAccount(credentials: TTtlockCredentials): string {
  const base = ttlockBaseUrl(credentials);
  const origin = URL.canParse(base) ? new URL(base).origin : base;
  return accountIdentity('ttlock', origin, credentials.username);
}

/** The parsed secret, or null when it is not TTLock credentials (a secret written before checks). */
export function readTtlockCredentials(secret: string | null): TTtlockCredentials | null {
  if (!secret) return null;
  try {
    const parsed = ZTtlockCredentialsSchema.safeParse(JSON.parse(secret));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const ENDPOINT_MESSAGES: Record<EndpointProblem | 'unreachable', string> = {
  invalid: 'The endpoint must be an address like https://euapi.ttlock.com (no user, query or fragment).',
  not_https: 'The endpoint must use https.',
  private: 'The endpoint must be a public https address (not a private, loopback or link-local one).',
  unreachable: 'The endpoint could not be reached.',
};

function invalid(path: string, message: string, problem: string): AppError {
  return new AppError('invalid_request', message, { issues: [{ path, message, code: 'custom' }], problem });
}

/**
 * TTLock credentials as a tenant may save them: JSON of the schema, an endpoint (when given) that
 * is a public https address — every address its name resolves to — unless the operator allows
 * private fetches. Throws `invalid_request` naming the field; writes nothing.
 */
export async function checkTtlockCredentials(secret: string): Promise<TTtlockCredentials> {
  let json: unknown;
  try {
    json = JSON.parse(secret);
  } catch {
    throw invalid(
      'value',
      'TTLock credentials are JSON: clientId, clientSecret, username, password, endpoint.',
      'json',
    );
  }
  const parsed = ZTtlockCredentialsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.') || 'value';
    throw invalid(path, `TTLock credentials: ${path} ${issue.message}`, 'shape');
  }
  if (parsed.data.endpoint !== undefined) {
    const problem = await endpointProblem(parsed.data.endpoint);
    if (problem) throw invalid('endpoint', ENDPOINT_MESSAGES[problem], problem);
  }
  return parsed.data;
}
