'use server';

import { z } from 'zod';
import { createApiKey, revokeApiKey } from '@/lib/auth/api-keys';
import { staffAction } from '@/app/_server/action';

const NAME_MAX = 100;
// The key list here and the overview's API key table.
const MANAGE = { path: '/manage', type: 'layout' } as const;

/**
 * Creates an API key for the current tenant and returns its secret, the only time it exists in
 * clear, to the client component that asked — never in a URL, cookie or log line. On failure the
 * typed name comes back so the form keeps it.
 */
export const createApiKeyAction = staffAction(
  {
    name: 'createApiKey',
    permission: 'api_keys.manage',
    input: z.object({
      name: z
        .string('apiKeys.create.nameRequired')
        .trim()
        .min(1, 'apiKeys.create.nameRequired')
        .max(NAME_MAX, 'apiKeys.create.nameTooLong'),
    }),
    echo: { name: 'text' },
    revalidate: MANAGE,
  },
  async ({ input: { name }, tenantId, actor }) => {
    const created = await createApiKey({ tenantId, name, actor });
    return { id: created.id, name, key: created.key, prefix: created.prefix };
  },
);

/** Revokes one API key of the current tenant; it stops working at once. */
export const revokeApiKeyAction = staffAction(
  {
    name: 'revokeApiKey',
    permission: 'api_keys.manage',
    input: z.object({ apiKeyId: z.uuid() }),
    revalidate: MANAGE,
  },
  async ({ input: { apiKeyId }, tenantId, actor }) => {
    await revokeApiKey({ tenantId, apiKeyId, actor });
    return null;
  },
);
