'use server';

import { z } from 'zod';
import { isAppError } from '@/lib/errors';
import { resendKeyLink } from '@/lib/messages/resend-key-link';
import { refuse, staffAction } from '@/app/_server/action';

/**
 * "Resend link": the reservation's guest link by email again (audited `message.resent`, at most 3 per
 * reservation per 10 minutes). Past the limit the clerk reads how long to wait.
 */
export const resendLinkAction = staffAction(
  {
    name: 'resendLink',
    permission: 'messages.resend',
    input: z.object({ reservationId: z.uuid() }),
    revalidate: { path: '/desk', type: 'layout' },
  },
  async ({ input: { reservationId }, tenantId, actor }) => {
    try {
      const message = await resendKeyLink({ tenantId, reservationId, actor });
      return { id: message.id };
    } catch (error) {
      if (isAppError(error) && error.code === 'rate_limited') {
        return refuse('messages.rateLimited', { vars: { seconds: Number(error.details.retryAfter ?? 60) } });
      }
      throw error;
    }
  },
);
