import { ClientMessages } from '@/components/client-messages';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Notice } from '@/components/ui/notice';
import { getT } from '@/i18n/server';
import type { StripeConnection } from '@/lib/payments/stripe-connect';
import { StripeConnectForm } from './stripe-connect-form';

const TONES: Record<StripeConnection['state'], BadgeTone> = {
  none: 'neutral',
  connected: 'success',
  onboarding: 'warning',
  refused: 'danger',
};

/** The tenant's Stripe account in words, and the button that starts or continues its onboarding. */
export async function PaymentsSection({
  connection,
  configured,
}: {
  connection: StripeConnection;
  configured: boolean;
}) {
  const t = await getT();
  const { state } = connection;
  return (
    <section className="section card" aria-labelledby="stripe-title" data-testid="stripe-connection" data-state={state}>
      <div className="secret-card__head">
        <h2 id="stripe-title">{t('payments.connect.status')}</h2>
        <Badge tone={TONES[state]} data-testid="stripe-state">
          {t(`payments.connect.badge.${state}`)}
        </Badge>
      </div>
      <p data-testid="stripe-state-words">{t(`payments.connect.state.${state}`)}</p>
      {state !== 'none' && (
        <dl className="facts">
          <div>
            <dt>{t('payments.connect.account')}</dt>
            <dd>
              <code data-testid="stripe-account-id">{connection.accountId}</code>
            </dd>
          </div>
        </dl>
      )}
      {(state === 'none' || state === 'onboarding') &&
        (configured ? (
          <ClientMessages only={['payments']}>
            <StripeConnectForm resume={state === 'onboarding'} />
          </ClientMessages>
        ) : (
          <Notice tone="info" announce={false} data-testid="stripe-not-configured">
            {t('payments.connect.notConfigured')}
          </Notice>
        ))}
    </section>
  );
}
