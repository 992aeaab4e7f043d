import type { Metadata } from 'next';
import Link from 'next/link';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { PaymentsSection } from '@/app/manage/_components/payments-section';
import { staffActor } from '@/lib/audit/actor';
import { stripeClient } from '@/lib/payments/stripe-client';
import { readStripeConnection, refreshStripeConnection } from '@/lib/payments/stripe-connect';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('payments.connect.title') };
}

/**
 * Stripe's return_url: what Stripe now says of the tenant's account (details submitted, charges enabled),
 * stored and shown in words — connected, onboarding unfinished (continue), or refused.
 */
export default async function PaymentsReturnPage() {
  const staff = await requireStaff('payments.manage', '/manage/payments');
  const { tenantId } = staff.current;
  const stripe = stripeClient();
  const [t, connection] = await Promise.all([
    getT(),
    stripe
      ? refreshStripeConnection({ tenantId, stripe, actor: staffActor(staff.user) })
      : readStripeConnection({ tenantId }),
  ]);
  return (
    <>
      <ManageNav staff={staff} current="payments" />
      <PageHeader title={t('payments.connect.title')} lead={t('payments.connect.returned')}>
        <p>
          <Link href="/manage/payments">{t('payments.connect.back')}</Link>
        </p>
      </PageHeader>
      <PaymentsSection connection={connection} configured={stripe !== null} />
    </>
  );
}
