'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { requestPasswordResetAction } from '@/app/password-reset/actions';
import { Button } from '@/components/ui/button';
import { EMAIL_INPUT, Field, Input } from '@/components/ui/field';
import { FormError, Notice } from '@/components/ui/notice';

/** "Forgot your password": one email field; the answer reads the same for every email. */
export function ResetRequestForm() {
  const t = useTranslations('passwordReset');
  const [state, action, pending] = useActionState(requestPasswordResetAction, null);
  if (state?.ok)
    return (
      <Notice tone="success" data-testid="reset-requested">
        {t('sent')}
      </Notice>
    );
  const emailError = state && !state.ok ? state.error.fieldErrors?.email : undefined;
  const general = state && !state.ok && !emailError ? state.error.message : null;
  return (
    <form action={action} className="form" data-testid="reset-request" key={state?.attempt ?? 0}>
      <Field id="reset-email" label={t('email')} error={emailError}>
        {(control) => (
          <Input {...control} {...EMAIL_INPUT} defaultValue={state && !state.ok ? state.values.email : ''} />
        )}
      </Field>
      <FormError as="div">{general}</FormError>
      <Button variant="primary" block type="submit" loading={pending} data-testid="reset-request-submit">
        {t('submit')}
      </Button>
    </form>
  );
}
