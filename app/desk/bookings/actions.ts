'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { bookGroup } from '@/lib/bookings/book-group';
import { isBookableWindow } from '@/lib/bookings/stay-window';
import { isAppError } from '@/lib/errors';
import type { MessageKey } from '@/lib/i18n/catalog';
import { logger } from '@/lib/log/logger';
import { getT } from '../../_server/i18n';
import { requireStaff } from '../../_server/staff';

// A public endpoint like every server action: it re-checks the session and permission, takes the
// tenant from the session (never from the form), validates its input and calls one lib function.

export type BookGroupValues = { name: string; email: string; phone: string; roomIds: string[] };
export type BookGroupField = 'name' | 'email' | 'phone' | 'roomIds';

/**
 * Why a booking was not made. `values` echoes the form so it can be shown again; `failedRoomIds`
 * are the rooms that were taken (nothing was held); `attempt` changes with every answer.
 */
export type BookGroupState = {
  attempt: number;
  values: BookGroupValues;
  fieldErrors: Partial<Record<BookGroupField, string>>;
  failedRoomIds: string[];
  message: string | null;
} | null;

const ZBookGroupFormSchema = z
  .object({
    name: z.string().trim().min(1, 'bookingForm.error.name').max(200, 'bookingForm.error.nameTooLong'),
    email: z.union([z.literal(''), z.email('bookingForm.error.email').max(320, 'bookingForm.error.email')]),
    phone: z.string().trim().max(40, 'bookingForm.error.phone'),
    roomIds: z
      .array(z.uuid('bookingForm.error.roomsNotFound'))
      .min(1, 'bookingForm.error.rooms')
      .max(50, 'bookingForm.error.tooManyRooms'),
    startsAt: z.iso.datetime({ offset: true, message: 'bookingForm.error.window' }).transform((s) => new Date(s)),
    endsAt: z.iso.datetime({ offset: true, message: 'bookingForm.error.window' }).transform((s) => new Date(s)),
  })
  .refine((v) => isBookableWindow(v.startsAt, v.endsAt), { message: 'bookingForm.error.window', path: ['endsAt'] });

const FIELDS: readonly BookGroupField[] = ['name', 'email', 'phone', 'roomIds'];

function text(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * Books the chosen rooms of the current tenant for one guest and one stay, all or none. On success
 * it redirects to the bookings list; a taken room comes back in `failedRoomIds` with nothing held.
 */
export async function bookGroupAction(previous: BookGroupState, formData: FormData): Promise<BookGroupState> {
  const staff = await requireStaff('bookings.create', '/desk/bookings/new');
  const t = await getT();
  const roomIds = [...new Set(formData.getAll('roomIds').filter((v): v is string => typeof v === 'string'))];
  const values: BookGroupValues = {
    name: text(formData, 'name'),
    email: text(formData, 'email').trim(),
    phone: text(formData, 'phone'),
    roomIds,
  };
  const answer = (rest: Omit<NonNullable<BookGroupState>, 'attempt' | 'values'>): BookGroupState => ({
    attempt: (previous?.attempt ?? 0) + 1,
    values,
    ...rest,
  });

  const parsed = ZBookGroupFormSchema.safeParse({
    ...values,
    startsAt: text(formData, 'startsAt'),
    endsAt: text(formData, 'endsAt'),
  });
  if (!parsed.success) {
    const fieldErrors: Partial<Record<BookGroupField, string>> = {};
    let message: string | null = null;
    for (const issue of parsed.error.issues) {
      const field = FIELDS.find((f) => f === issue.path[0]);
      const key = (issue.message.startsWith('bookingForm.') ? issue.message : 'bookingForm.error.window') as MessageKey;
      if (field) fieldErrors[field] ??= t(key);
      else message ??= t(key);
    }
    return answer({ fieldErrors, failedRoomIds: [], message });
  }

  const { name, email, phone, startsAt, endsAt } = parsed.data;
  let groupId: string;
  try {
    const group = await bookGroup({
      tenantId: staff.current.tenantId,
      actor: { type: 'user', id: staff.user.id, label: staff.user.name || staff.user.email },
      source: 'desk',
      guest: { name, email: email || null, phone: phone || null },
      reservations: parsed.data.roomIds.map((roomId) => ({ roomId, startsAt, endsAt })),
      preIssueKeys: true,
    });
    groupId = group.id;
  } catch (error) {
    if (isAppError(error) && error.code === 'room_unavailable') {
      const failed = Array.isArray(error.details.roomIds)
        ? error.details.roomIds.filter((id): id is string => typeof id === 'string')
        : [];
      return answer({ fieldErrors: {}, failedRoomIds: failed, message: t('bookingForm.conflict') });
    }
    if (isAppError(error) && error.code === 'not_found')
      return answer({ fieldErrors: {}, failedRoomIds: [], message: t('bookingForm.error.roomsNotFound') });
    logger.error({ err: error, tenantId: staff.current.tenantId }, 'desk group booking failed');
    return answer({ fieldErrors: {}, failedRoomIds: [], message: t('bookingForm.error.generic') });
  }
  revalidatePath('/desk', 'layout');
  redirect(`/desk/bookings?created=${encodeURIComponent(groupId)}`);
}
