'use client';

import { FormError, Notice } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { setProviderSecretAction } from '@/app/manage/secrets/actions';
import { Button } from '@/components/ui/button';

type Props = {
  provider: 'calendly' | 'cal' | 'acuity' | 'seam' | 'seam_webhook' | 'ttlock' | 'lock_vendor';
  /** Whether a value is stored already: the button then says "Replace secret". */
  isSet: boolean;
};

/**
 * Sets or replaces one provider secret. The value is write-only: the field is a password input,
 * React clears it after every answer, and the server never sends it back.
 */
export function SecretForm({ provider, isSet }: Props) {
  const t = useTranslations('secrets');
  const [state, action, pending] = useActionState(setProviderSecretAction, null);
  const id = useId();
  const error = state && !state.ok ? state.error : null;
  return (
    <form action={action} noValidate className="form" data-testid={`secret-form-${provider}`}>
      <input type="hidden" name="provider" value={provider} />
      <Field id={`${id}-value`} label={t(`field.${provider}`)} hint={t(`hint.${provider}`)} describedBy={`${id}-error`}>
        {(control) => (
          <Input
            {...control}
            mono
            name="value"
            type="password"
            required
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="off"
            aria-invalid={error ? true : undefined}
            data-testid={`secret-value-${provider}`}
          />
        )}
      </Field>
      <FormError id={`${id}-error`}>{error?.message}</FormError>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" disabled={pending} data-testid={`secret-save-${provider}`}>
          {pending ? t('pending') : isSet ? t('submit.replace') : t('submit.set')}
        </Button>
        <Notice as="span" tone="success" variant="inline" data-testid={`secret-saved-${provider}`}>
          {state?.ok ? t('saved', { version: state.data.keyVersion }) : ''}
        </Notice>
      </div>
    </form>
  );
}
