'use server';

import { z } from 'zod';
import { sendTestMail } from '@/lib/messages/send-test-mail';
import { getLocale } from '@/i18n/server';
import { staffAction } from '@/app/_server/action';

/**
 * "Send test mail" on the mailbox page: one mail through the install's SMTP server to an address (the
 * manager's own by default), answered with the server's word when it did not go; rate limited.
 */
export const sendTestMailAction = staffAction(
  {
    name: 'sendTestMail',
    permission: 'mailbox.view',
    input: z.object({
      to: z.string().trim().max(254, 'mailbox.test.invalidAddress').pipe(z.email('mailbox.test.invalidAddress')),
    }),
    echo: { to: 'text' },
  },
  async ({ input: { to }, tenantId, actor }) => sendTestMail({ tenantId, actor, to, locale: await getLocale() }),
);
