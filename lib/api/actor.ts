import type { Actor } from '../audit/actor';
import type { ApiKeyPrincipal } from '../auth/api-keys';

/** The audit actor of an API request: the key, by id and name. */
export function apiKeyActor(principal: ApiKeyPrincipal): Actor {
  return { type: 'api_key', id: principal.apiKeyId, label: `API key “${principal.name}”` };
}
