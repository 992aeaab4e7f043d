'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { isAppError } from '@/lib/errors';
import { deleteGuestOfReservation } from '@/lib/guests/delete-guest';
import { logger } from '@/lib/log/logger';
import { getT } from '../../../_server/i18n';
import { requireStaff } from '../../../_server/staff';

/** On a mismatch, `confirmName` echoes what was typed so the form can keep it. */
export type DeleteGuestState =
  { ok: true } | { ok: false; message: string; field?: 'confirmName'; confirmName?: string } | null;

const ZDeleteGuestFormSchema = z.object({ reservationId: z.uuid(), confirmName: z.string().max(1000) });

/**
 * Deletes the personal data of a reservation's guest (managers only, `staff.manage`), once the
 * guest's name has been typed to confirm. The guest is resolved from the reservation in the
 * session's tenant, never taken from the form.
 */
export async function deleteGuestAction(_previous: DeleteGuestState, formData: FormData): Promise<DeleteGuestState> {
  const staff = await requireStaff('staff.manage', '/desk');
  const t = await getT();
  const parsed = ZDeleteGuestFormSchema.safeParse({
    reservationId: formData.get('reservationId'),
    confirmName: formData.get('confirmName') ?? '',
  });
  if (!parsed.success) return { ok: false, message: t('guestDelete.notFound') };
  const { reservationId, confirmName } = parsed.data;
  const { tenantId } = staff.current;
  try {
    const actor = { type: 'user' as const, id: staff.user.id, label: staff.user.name || staff.user.email };
    const outcome = await deleteGuestOfReservation({ tenantId, reservationId, confirmName, actor });
    if (outcome === 'name_mismatch')
      return { ok: false, field: 'confirmName', message: t('guestDelete.mismatch'), confirmName };
    revalidatePath('/desk', 'layout');
    return { ok: true };
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') {
      revalidatePath('/desk', 'layout');
      return { ok: false, message: t('guestDelete.notFound') };
    }
    logger.error({ err: error, reservationId }, 'guest deletion failed');
    return { ok: false, message: t('guestDelete.error'), confirmName };
  }
}
