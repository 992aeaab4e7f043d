import type { Metadata } from 'next';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { PaymentsSection } from '@/app/manage/_components/payments-section';
import { paymentsConfigured } from '@/lib/payments/stripe-client';
import { readStripeConnection } from '@/lib/payments/stripe-connect';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('payments.connect.title') };
}

/** The tenant's payments: its own Stripe account, connected from here (Connect onboarding). */
export default async function PaymentsPage() {
  const staff = await requireStaff('payments.manage', '/manage/payments');
  const [t, connection] = await Promise.all([getT(), readStripeConnection({ tenantId: staff.current.tenantId })]);
  return (
    <>
      <ManageNav staff={staff} current="payments" />
      <PageHeader
        title={t('payments.connect.title')}
        lead={t('payments.connect.lead', { tenant: staff.current.tenantName })}
      />
      <PaymentsSection connection={connection} configured={paymentsConfigured()} />
    </>
  );
}
