'use client';

import { useActionState, useId } from 'react';
import { replayWebhooksAction } from '@/app/manage/webhooks/actions';
import { QueryProvider } from '@/components/query-provider';
import { ReplayProgress, type ReplayProgressLabels } from './replay-progress';

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
          <div className="field">
            <label htmlFor={`${id}-provider`} className="field__label">
              {labels.provider}
            </label>
            <select
              id={`${id}-provider`}
              name="provider"
              className="select"
              defaultValue={values.provider}
              key={`p-${values.provider}`}
              aria-invalid={invalid('provider')}
              aria-describedby={`${id}-error`}
              data-testid="webhook-replay-provider"
            >
              {(Object.keys(labels.providers) as (keyof WebhookReplayLabels['providers'])[]).map((provider) => (
                <option key={provider} value={provider}>
                  {labels.providers[provider]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-from`} className="field__label">
              {labels.from}
            </label>
            <input
              id={`${id}-from`}
              name="from"
              type="datetime-local"
              required
              className="input"
              defaultValue={values.from}
              key={`f-${values.from}`}
              aria-invalid={invalid('from')}
              aria-describedby={`${id}-hint ${id}-error`}
              data-testid="webhook-replay-from"
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`} className="field__label">
              {labels.to}
            </label>
            <input
              id={`${id}-to`}
              name="to"
              type="datetime-local"
              required
              className="input"
              defaultValue={values.to}
              key={`t-${values.to}`}
              aria-invalid={invalid('to')}
              aria-describedby={`${id}-hint ${id}-error`}
              data-testid="webhook-replay-to"
            />
          </div>
        </div>
        <p id={`${id}-hint`} className="field__hint">
          {labels.hint}
        </p>
        <p id={`${id}-error`} role="alert" className="form__error" data-testid="webhook-replay-error">
          {error?.error.message}
        </p>
        <div className="form__submit-row">
          <button
            type="submit"
            className="button button--primary"
            disabled={pending}
            data-testid="webhook-replay-submit"
          >
            {pending ? labels.pending : labels.submit}
          </button>
          <span role="status" className="inline-success inline-success--flush" data-testid="webhook-replay-result">
            {state?.ok
              ? (state.data.requeued === 1 ? labels.requeuedOne : labels.requeuedOther).replace(
                  '{count}',
                  String(state.data.requeued),
                )
              : ''}
          </span>
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
