'use server';

import { recordPayment, ZPaymentFormSchema } from '@/lib/payments/record-payment';
import { staffAction } from '@/app/_server/action';

/** "Record payment": cash or the card terminal at the desk; the stay is paid from its first payment (audited). */
export const recordPaymentAction = staffAction(
  {
    name: 'recordPayment',
    permission: 'payments.record',
    input: ZPaymentFormSchema,
    echo: { amount: 'text', method: 'text', note: 'text' },
    revalidate: { path: '/desk', type: 'layout' },
  },
  async ({ input, tenantId, actor }) => {
    const payment = await recordPayment({ tenantId, ...input, actor });
    return { id: payment.id };
  },
);
