'use server';

import { z } from 'zod';
import { markGuestMessageRead } from '@/lib/desk/guest-messages';
import { staffAction } from '@/app/_server/action';

/** "Mark read" on a guest's message on the desk's day: it leaves the unread count for everyone at the desk. */
export const markGuestMessageReadAction = staffAction(
  {
    name: 'markGuestMessageRead',
    permission: 'desk.view',
    input: z.object({ messageId: z.uuid() }),
    revalidate: { path: '/desk', type: 'layout' },
  },
  async ({ input: { messageId }, tenantId, actor }) => {
    const { readAt } = await markGuestMessageRead({ tenantId, messageId, actor });
    return { messageId, readAt: readAt.toISOString() };
  },
);
