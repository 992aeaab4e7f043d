'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import type { Actor } from '@/lib/audit/actor';
import type { StaffContext } from '@/lib/auth/staff';
import { isAppError } from '@/lib/errors';
import { logger } from '@/lib/log/logger';
import { SECRET_PROVIDERS, setProviderSecret } from '@/lib/secrets/provider-secrets';
import { getT } from '../../_server/i18n';
import { requireStaff } from '../../_server/staff';

// Server actions are public endpoints: each re-checks the session and permission, takes the tenant
// from the session (never from the form), validates its input and calls one lib function.

type Provider = (typeof SECRET_PROVIDERS)[number];

/** The value is never echoed back: after any answer the field is empty. */
export type SetSecretState =
  { ok: true; provider: Provider; keyVersion: number } | { ok: false; message: string } | null;

const VALUE_MAX = 4096;

function actorOf(staff: StaffContext): Actor {
  return { type: 'user', id: staff.user.id, label: staff.user.name || staff.user.email };
}

/** Sets or replaces one provider secret of the current tenant, encrypted with the server's data key. */
export async function setProviderSecretAction(_previous: SetSecretState, formData: FormData): Promise<SetSecretState> {
  const staff = await requireStaff('secrets.manage', '/manage/secrets');
  const t = await getT();
  const schema = z.object({
    provider: z.enum(SECRET_PROVIDERS, t('secrets.invalidProvider')),
    // Surrounding spaces are paste accidents; no provider issues a secret that starts or ends with one.
    value: z
      .string(t('secrets.valueRequired'))
      .trim()
      .min(1, t('secrets.valueRequired'))
      .max(VALUE_MAX, t('secrets.valueTooLong', { max: VALUE_MAX })),
  });
  const parsed = schema.safeParse({ provider: formData.get('provider'), value: formData.get('value') ?? '' });
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? t('secrets.valueRequired') };
  const { provider, value } = parsed.data;
  try {
    const { keyVersion } = await setProviderSecret({
      tenantId: staff.current.tenantId,
      provider,
      value,
      actor: actorOf(staff),
    });
    revalidatePath('/manage/secrets');
    return { ok: true, provider, keyVersion };
  } catch (error) {
    if (isAppError(error) && error.code === 'data_key_mismatch')
      return { ok: false, message: t('secrets.dataKeyMissing') };
    // Only the code: a database error object could carry the query's parameters, the secret among them.
    logger.error(
      { code: isAppError(error) ? error.code : 'unexpected', provider, tenantId: staff.current.tenantId },
      'provider secret update failed',
    );
    return { ok: false, message: t('secrets.error') };
  }
}
