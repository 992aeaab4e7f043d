'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { recordPaymentAction } from '@/app/desk/reservations/[id]/payment-actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect } from '@/components/ui/action-field';
import { Notice } from '@/components/ui/notice';

/** "Record payment": an amount in the facility's currency (major unit), cash or card terminal, and a note. */
export function PaymentForm({ reservationId, currency }: { reservationId: string; currency: string }) {
  const t = useTranslations('payments');
  const [state, action, pending] = useActionState(recordPaymentAction, null);
  const id = useId();
  return (
    <form action={action} noValidate className="form" data-testid="payment-form" key={state?.attempt ?? 0}>
      <input type="hidden" name="reservationId" value={reservationId} />
      <input type="hidden" name="currency" value={currency} />
      <div className="form__row">
        <ActionInput
          state={state}
          id={`${id}-amount`}
          name="amount"
          label={t('field.amount', { currency: currency.toUpperCase() })}
          inputMode="decimal"
          autoComplete="off"
          required
          data-testid="payment-amount"
        />
        <ActionSelect
          state={state}
          id={`${id}-method`}
          name="method"
          label={t('field.method')}
          stored="cash"
          data-testid="payment-method"
        >
          <option value="cash">{t('method.cash')}</option>
          <option value="card_terminal">{t('method.card_terminal')}</option>
        </ActionSelect>
        <ActionInput
          state={state}
          id={`${id}-note`}
          name="note"
          label={t('field.note')}
          maxLength={500}
          autoComplete="off"
          data-testid="payment-note"
        />
      </div>
      <div className="form__submit-row">
        <Button
          variant="primary"
          type="submit"
          loading={pending}
          loadingLabel={t('recording')}
          data-testid="payment-record"
        >
          {t('record')}
        </Button>
      </div>
      {state && (
        <Notice tone={state.ok ? 'success' : 'error'} data-testid="payment-result">
          {state.ok ? t('recorded') : state.error.message}
        </Notice>
      )}
    </form>
  );
}
