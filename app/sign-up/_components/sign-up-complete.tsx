'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { completeSignUpAction } from '@/app/sign-up/actions';
import { PasswordForm } from '@/components/password-form';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/notice';

/**
 * What opens the organisation on a sign-up's link (a click, never the page load — mail scanners open links too), then
 * the manager's screen. An email with no account that signs in chooses its password here, typed by whoever followed
 * the link (the sign-up form never asks for one: issue 43.1); an account that signs in is already signed in here.
 */
export function SignUpComplete({
  token,
  organisation,
  email,
  choosePassword,
}: {
  token: string;
  organisation: string;
  email: string;
  choosePassword: boolean;
}) {
  const t = useTranslations('signUp.link');
  const [state, action, pending] = useActionState(completeSignUpAction, null);
  if (choosePassword)
    return (
      <>
        <p>{t('choosePassword', { email })}</p>
        <PasswordForm
          action={completeSignUpAction}
          hidden={{ token }}
          username={email}
          submit={t('create', { organisation })}
          newLabel={t('password')}
          confirmLabel={t('passwordAgain')}
          testId="sign-up-complete"
        />
      </>
    );
  return (
    <form action={action} className="form" data-testid="sign-up-complete">
      <input type="hidden" name="token" value={token} />
      <FormError as="div" data-testid="sign-up-complete-error">
        {state && !state.ok ? state.error.message : null}
      </FormError>
      <Button variant="primary" block type="submit" loading={pending} data-testid="sign-up-complete-submit">
        {t('create', { organisation })}
      </Button>
    </form>
  );
}
