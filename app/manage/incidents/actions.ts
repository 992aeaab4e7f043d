'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { resolveIncidentByHand } from '@/lib/alerts/resolve-incident-by-hand';
import { logger } from '@/lib/log/logger';
import { getT } from '../../_server/i18n';
import { requireStaff } from '../../_server/staff';

// Server actions are public endpoints: this one re-checks the session and permission, takes the
// tenant from the session (never from the form), validates its input and calls one lib function.

export type ResolveIncidentState = { ok: true } | { ok: false; message: string } | null;

const ZResolveIncidentFormSchema = z.object({ incidentId: z.uuid() });

/** Marks one open incident of the current tenant resolved (a manager acknowledging it); already resolved is fine. */
export async function resolveIncidentAction(
  _previous: ResolveIncidentState,
  formData: FormData,
): Promise<ResolveIncidentState> {
  const staff = await requireStaff('incidents.view', '/manage/incidents');
  const t = await getT();
  const parsed = ZResolveIncidentFormSchema.safeParse({ incidentId: formData.get('incidentId') });
  if (!parsed.success) return { ok: false, message: t('incidents.resolve.error') };
  try {
    await resolveIncidentByHand({ tenantId: staff.current.tenantId, incidentId: parsed.data.incidentId });
    revalidatePath('/manage/incidents');
    return { ok: true };
  } catch (error) {
    logger.error({ err: error, incidentId: parsed.data.incidentId }, 'incident resolution failed');
    return { ok: false, message: t('incidents.resolve.error') };
  }
}
