'use client';

import { FormError } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useId, useRef, useState } from 'react';
import { createApiKeyAction } from '@/app/manage/api-keys/actions';
import { CopyButton } from './copy-button';
import { Button } from '@/components/ui/button';

/**
 * "Create API key": the new secret is shown once, in a panel above the form, from the action's
 * answer only (kept in memory by useActionState) until dismissed or the page is left.
 */
export function CreateApiKeyForm() {
  const t = useTranslations('apiKeys');
  const [state, action, pending] = useActionState(createApiKeyAction, null);
  const [dismissedId, setDismissedId] = useState<string | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const id = useId();

  const created = state?.ok && state.data.id !== dismissedId ? state.data : null;
  const error = state && !state.ok ? state : null;

  // The secret takes the user's attention: move focus to it so screen readers announce it.
  useEffect(() => {
    if (state?.ok) panelRef.current?.focus();
  }, [state]);

  return (
    <>
      {created && (
        <div
          ref={panelRef}
          tabIndex={-1}
          role="region"
          aria-labelledby={`${id}-created`}
          className="result-panel result-panel--success secret-panel"
          data-testid="api-key-secret-panel"
        >
          <div className="result-panel__body secret-panel__body">
            <p id={`${id}-created`} className="result-panel__title">
              {t('created.title', { name: created.name })}
            </p>
            <p className="secret-panel__warning" data-testid="api-key-secret-warning">
              <strong>{t('created.warning')}</strong>
            </p>
            <p className="secret-panel__label">{t('created.keyLabel')}</p>
            <div className="secret-panel__value">
              <code id={`${id}-key`} className="secret-panel__code" data-testid="api-key-secret">
                {created.key}
              </code>
              <CopyButton
                text={created.key}
                targetId={`${id}-key`}
                accessibleLabel={t('created.copyKey')}
                testId="api-key-copy"
              />
            </div>
          </div>
          <Button onClick={() => setDismissedId(created.id)} data-testid="api-key-secret-dismiss">
            {t('created.dismiss')}
          </Button>
        </div>
      )}

      <section className="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>{t('create.title')}</h2>
        {/* noValidate: the server's message (translated, inline) is the one the user sees. */}
        <form action={action} noValidate className="form form--inline" data-testid="api-key-create-form">
          <Field id={`${id}-name`} label={t('create.name')} hint={t('create.nameHint')} describedBy={`${id}-error`}>
            {(control) => (
              <Input
                {...control}
                name="name"
                type="text"
                required
                maxLength={100}
                autoComplete="off"
                // React resets a form after its action: keep what was typed when it comes back with an error.
                defaultValue={error?.values.name ?? ''}
                key={
                  error
                    ? `error-${error.error.message}-${error.values.name}`
                    : `fresh-${state?.ok ? state.data.id : ''}`
                }
                aria-invalid={error ? true : undefined}
                data-testid="api-key-name"
              />
            )}
          </Field>
          <FormError id={`${id}-error`}>{error?.error.message}</FormError>
          <div>
            <Button variant="primary" type="submit" disabled={pending} data-testid="api-key-create">
              {pending ? t('create.pending') : t('create.submit')}
            </Button>
          </div>
        </form>
      </section>
    </>
  );
}
