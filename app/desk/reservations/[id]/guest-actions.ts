'use server';

import { z } from 'zod';
import { deleteGuestOfReservation } from '@/lib/guests/delete-guest';
import { refuse, staffAction } from '@/app/_server/action';

/**
 * Deletes the personal data of a reservation's guest (managers only, `staff.manage`), once the
 * guest's name has been typed to confirm. The guest is resolved from the reservation in the
 * session's tenant, never taken from the form.
 */
export const deleteGuestAction = staffAction(
  {
    name: 'deleteGuest',
    permission: 'staff.manage',
    input: z.object({ reservationId: z.uuid(), confirmName: z.string().max(1000).default('') }),
    revalidate: { path: '/desk', type: 'layout' },
  },
  async ({ input: { reservationId, confirmName }, tenantId, actor }) => {
    const outcome = await deleteGuestOfReservation({ tenantId, reservationId, confirmName, actor });
    return outcome === 'name_mismatch' ? refuse('guestDelete.mismatch', { field: 'confirmName' }) : null;
  },
);
