'use client';

import { FormError, Notice } from '@/components/ui/notice';
import { Field, FieldHint, Input, Select } from '@/components/ui/field';
import { useActionState, useId } from 'react';
import { replayWebhooksAction } from '@/app/manage/webhooks/actions';
import { QueryProvider } from '@/components/query-provider';
import { ReplayProgress, type ReplayProgressLabels } from './replay-progress';
import { Button } from '@/components/ui/button';

export type WebhookReplayLabels = {
  provider: string;
  providers: Record<'stripe' | 'calendly' | 'cal', string>;
  from: string;
  to: string;
  hint: string;
  submit: string;
  pending: string;
  /** Contains `{count}`. */
  requeuedOne: string;
  requeuedOther: string;
  progress: ReplayProgressLabels;
};

/** Replays one provider's events of a window (facility wall-clock times), then follows their reprocessing. */
export function WebhookReplayForm({
  defaults,
  labels,
}: {
  defaults: { provider: string; from: string; to: string };
  labels: WebhookReplayLabels;
}) {
  const [state, action, pending] = useActionState(replayWebhooksAction, null);
  const id = useId();
  const error = state && !state.ok ? state : null;
  const values = error?.values ?? defaults;
  const invalid = (field: 'provider' | 'from' | 'to') => (error?.error.field === field ? true : undefined);
  return (
    <>
      <form action={action} noValidate className="form replay-form" data-testid="webhook-replay-form">
        <div className="replay-form__fields">
          <Field id={`${id}-provider`} label={labels.provider} describedBy={`${id}-error`}>
            {(control) => (
              <Select
                {...control}
                name="provider"
                defaultValue={values.provider}
                key={`p-${values.provider}`}
                aria-invalid={invalid('provider')}
                data-testid="webhook-replay-provider"
              >
                {(Object.keys(labels.providers) as (keyof WebhookReplayLabels['providers'])[]).map((provider) => (
                  <option key={provider} value={provider}>
                    {labels.providers[provider]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field id={`${id}-from`} label={labels.from} describedBy={`${id}-hint ${id}-error`}>
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
          <Field id={`${id}-to`} label={labels.to} describedBy={`${id}-hint ${id}-error`}>
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
        <FieldHint id={`${id}-hint`}>{labels.hint}</FieldHint>
        <FormError id={`${id}-error`} data-testid="webhook-replay-error">
          {error?.error.message}
        </FormError>
        <div className="form__submit-row">
          <Button variant="primary" type="submit" disabled={pending} data-testid="webhook-replay-submit">
            {pending ? labels.pending : labels.submit}
          </Button>
          <Notice as="span" tone="success" variant="inline" data-testid="webhook-replay-result">
            {state?.ok
              ? (state.data.requeued === 1 ? labels.requeuedOne : labels.requeuedOther).replace(
                  '{count}',
                  String(state.data.requeued),
                )
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
            labels={labels.progress}
          />
        </QueryProvider>
      )}
    </>
  );
}
