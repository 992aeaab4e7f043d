import { AppError } from '../errors';

/**
 * What a tenant's `acuity` secret holds: `<user id>:<API key>` — Acuity's API takes them as HTTP Basic
 * credentials, and the API key alone signs its webhooks. Both from Acuity's Integrations → API page.
 */
export type TAcuityCredentials = { userId: string; apiKey: string };

const SHAPE = /^(\d{1,20}):([A-Za-z0-9]{16,128})$/;

/** The parsed secret, or null when it is not `<digits>:<API key>` (a secret written before checks). */
export function readAcuityCredentials(secret: string | null): TAcuityCredentials | null {
  const match = secret ? SHAPE.exec(secret.trim()) : null;
  return match ? { userId: match[1]!, apiKey: match[2]! } : null;
}

/** Acuity credentials as a tenant may save them; anything else is `invalid_request` and writes nothing. */
export function checkAcuityCredentials(secret: string): TAcuityCredentials {
  const credentials = readAcuityCredentials(secret);
  if (!credentials) {
    const message = 'Acuity credentials are "<user id>:<API key>": the numeric user id, a colon, then the API key.';
    throw new AppError('invalid_request', message, {
      issues: [{ path: 'value', message, code: 'custom' }],
      problem: 'shape',
    });
  }
  return credentials;
}
