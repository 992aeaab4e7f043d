'use client';

import { FormError, Notice } from '@/components/ui/notice';
import { Field, FieldHint, Input, Select } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { replayWebhooksAction } from '@/app/manage/webhooks/actions';
import { QueryProvider } from '@/components/query-provider';
import { REPLAY_MAX_DAYS, WEBHOOK_PROVIDERS } from '@/lib/webhooks/webhook-log-filters';
import { ReplayProgress } from './replay-progress';
import { Button } from '@/components/ui/button';

/** Replays one provider's events of a window (facility wall-clock times), then follows their reprocessing. */
export function WebhookReplayForm({
  defaults,
  timeZone,
}: {
  defaults: { provider: string; from: string; to: string };
  /** The facility's IANA zone: the window's wall-clock times are read in it. */
  timeZone: string;
}) {
  const t = useTranslations('webhooks');
  const [state, action, pending] = useActionState(replayWebhooksAction, null);
  const id = useId();
  const error = state && !state.ok ? state : null;
  const values = error?.values ?? defaults;
  const invalid = (field: 'provider' | 'from' | 'to') => (error?.error.field === field ? true : undefined);
  return (
    <>
      <form action={action} noValidate className="form replay-form" data-testid="webhook-replay-form">
        <div className="replay-form__fields">
          <Field id={`${id}-provider`} label={t('replay.provider')} describedBy={`${id}-error`}>
            {(control) => (
              <Select
                {...control}
                name="provider"
                defaultValue={values.provider}
                key={`p-${values.provider}`}
                aria-invalid={invalid('provider')}
                data-testid="webhook-replay-provider"
              >
                {WEBHOOK_PROVIDERS.map((provider) => (
                  <option key={provider} value={provider}>
                    {t(`provider.${provider}`)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field id={`${id}-from`} label={t('replay.from')} describedBy={`${id}-hint ${id}-error`}>
            {(control) => (
              <Input
                {...control}
                name="from"
                type="datetime-local"
                required
                defaultValue={values.from}
                key={`f-${values.from}`}
                aria-invalid={invalid('from')}
                data-testid="webhook-replay-from"
              />
            )}
          </Field>
          <Field id={`${id}-to`} label={t('replay.to')} describedBy={`${id}-hint ${id}-error`}>
            {(control) => (
              <Input
                {...control}
                name="to"
                type="datetime-local"
                required
                defaultValue={values.to}
                key={`t-${values.to}`}
                aria-invalid={invalid('to')}
                data-testid="webhook-replay-to"
              />
            )}
          </Field>
        </div>
        <FieldHint id={`${id}-hint`}>{t('replay.hint', { timeZone, days: REPLAY_MAX_DAYS })}</FieldHint>
        <FormError id={`${id}-error`} data-testid="webhook-replay-error">
          {error?.error.message}
        </FormError>
        <div className="form__submit-row">
          <Button variant="primary" type="submit" disabled={pending} data-testid="webhook-replay-submit">
            {pending ? t('replay.pending') : t('replay.submit')}
          </Button>
          <Notice as="span" tone="success" variant="inline" data-testid="webhook-replay-result">
            {state?.ok
              ? state.data.requeued === 1
                ? t('replay.requeued.one')
                : t('replay.requeued.other', { count: state.data.requeued })
              : ''}
          </Notice>
        </div>
      </form>
      {state?.ok && state.data.requeued > 0 && (
        <QueryProvider>
          <ReplayProgress
            key={state.data.replayedAt}
            replayedAt={state.data.replayedAt}
            provider={state.data.provider}
            from={state.data.from}
            to={state.data.to}
          />
        </QueryProvider>
      )}
    </>
  );
}
