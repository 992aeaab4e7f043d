/** How a lock provider's failure code reads to a manager: one of `locks.providerProblem.*`. */
export type ProviderProblem = 'notConfigured' | 'credentials' | 'unreachable' | 'device' | 'other';

// The codes the adapters answer with (lib/locks/classify.ts, the Seam and TTLock adapters).
const CREDENTIALS = new Set([
  'invalid_client',
  'invalid_credentials',
  'token_invalid',
  'unauthorized',
  'account_disconnected',
  'malformed_token',
  'http_401',
  'http_403',
  'vendor_10001',
  'vendor_10003',
  'vendor_10004',
]);
const DEVICE = new Set(['device_offline', 'device_not_found', 'vendor_-3002', 'vendor_-3036']);
const UNREACHABLE = new Set([
  'provider_unreachable',
  'timeout',
  'network_error',
  'malformed_response',
  'http_429',
  'vendor_-1',
  'vendor_-3003',
]);

/** The plain-words kind of a provider failure code; an unknown code is `other` (shown with the code). */
export function providerProblem(code: string): ProviderProblem {
  if (code.endsWith('_not_configured')) return 'notConfigured';
  if (CREDENTIALS.has(code)) return 'credentials';
  if (DEVICE.has(code)) return 'device';
  if (UNREACHABLE.has(code) || /^http_5\d\d$/.test(code)) return 'unreachable';
  return 'other';
}
