'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { connectStripeAction } from '@/app/manage/payments/actions';
import { Button } from '@/components/ui/button';
import { ActionResult } from './action-result';

/** "Connect Stripe" (or "Continue onboarding"): the server makes the account once and sends the browser to Stripe. */
export function StripeConnectForm({ resume }: { resume: boolean }) {
  const t = useTranslations('payments.connect');
  const [state, action, pending] = useActionState(connectStripeAction, null);
  return (
    <form action={action} className="form" data-testid="stripe-connect-form">
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} data-testid="stripe-connect">
          {resume ? t('continue') : t('start')}
        </Button>
      </div>
      {state && !state.ok && (
        <ActionResult attempt={state.attempt} tone="error" testId="stripe-connect-result">
          {state.error.message}
        </ActionResult>
      )}
    </form>
  );
}
