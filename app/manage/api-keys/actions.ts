'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { createApiKey, revokeApiKey } from '@/lib/auth/api-keys';
import type { StaffContext } from '@/lib/auth/staff';
import { isAppError } from '@/lib/errors';
import { logger } from '@/lib/log/logger';
import { getT } from '../../_server/i18n';
import { requireStaff } from '../../_server/staff';

// Server actions are public endpoints: each re-checks the session and permission, takes the tenant
// from the session (never from the form), validates its input and calls one lib function.

/**
 * On success the secret comes back here, once, to be shown by the client component that asked —
 * never in a URL, cookie or log line. On failure `name` echoes what was typed so the form keeps it.
 */
export type CreateApiKeyState =
  | { ok: true; id: string; name: string; key: string; prefix: string }
  | { ok: false; message: string; name?: string }
  | null;

export type RevokeApiKeyState = { ok: true } | { ok: false; message: string } | null;

const NAME_MAX = 100;
const PATH = '/manage/api-keys';
const ZRevokeApiKeyFormSchema = z.object({ apiKeyId: z.uuid() });

function actorOf(staff: StaffContext) {
  return { type: 'user' as const, id: staff.user.id, label: staff.user.name || staff.user.email };
}

function revalidateManage(): void {
  // The key list here and the overview's API key table.
  revalidatePath('/manage', 'layout');
}

/** Creates an API key for the current tenant and returns its secret, the only time it exists in clear. */
export async function createApiKeyAction(_previous: CreateApiKeyState, formData: FormData): Promise<CreateApiKeyState> {
  const staff = await requireStaff('api_keys.manage', PATH);
  const t = await getT();
  const schema = z.object({
    name: z
      .string(t('apiKeys.create.nameRequired'))
      .trim()
      .min(1, t('apiKeys.create.nameRequired'))
      .max(NAME_MAX, t('apiKeys.create.nameTooLong', { max: NAME_MAX })),
  });
  const typed = formData.get('name');
  const echo = typeof typed === 'string' ? typed.slice(0, 1000) : undefined;
  const parsed = schema.safeParse({ name: typed ?? '' });
  if (!parsed.success)
    return { ok: false, message: parsed.error.issues[0]?.message ?? t('apiKeys.create.nameRequired'), name: echo };
  const { name } = parsed.data;
  try {
    const created = await createApiKey({ tenantId: staff.current.tenantId, name, actor: actorOf(staff) });
    revalidateManage();
    return { ok: true, id: created.id, name, key: created.key, prefix: created.prefix };
  } catch (error) {
    // Never log the error object wholesale here: only its code, so nothing secret can ride along.
    logger.error(
      { code: isAppError(error) ? error.code : 'unexpected', tenantId: staff.current.tenantId },
      'API key creation failed',
    );
    return { ok: false, message: t('apiKeys.create.error'), name: echo };
  }
}

/** Revokes one API key of the current tenant; it stops working at once. */
export async function revokeApiKeyAction(_previous: RevokeApiKeyState, formData: FormData): Promise<RevokeApiKeyState> {
  const staff = await requireStaff('api_keys.manage', PATH);
  const t = await getT();
  const parsed = ZRevokeApiKeyFormSchema.safeParse({ apiKeyId: formData.get('apiKeyId') });
  if (!parsed.success) return { ok: false, message: t('apiKeys.revoke.notFound') };
  const { apiKeyId } = parsed.data;
  try {
    await revokeApiKey({ tenantId: staff.current.tenantId, apiKeyId, actor: actorOf(staff) });
    revalidateManage();
    return { ok: true };
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') return { ok: false, message: t('apiKeys.revoke.notFound') };
    logger.error({ err: error, apiKeyId }, 'API key revocation failed');
    return { ok: false, message: t('apiKeys.revoke.error') };
  }
}
