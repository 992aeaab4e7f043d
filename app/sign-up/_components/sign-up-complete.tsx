'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { completeSignUpAction } from '@/app/sign-up/actions';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/notice';

/**
 * The one button of a sign-up's link: opens the organisation (a click, never the page load — mail
 * scanners open links too) and lands on the manager's screen.
 */
export function SignUpComplete({ token, organisation }: { token: string; organisation: string }) {
  const t = useTranslations('signUp.link');
  const [state, action, pending] = useActionState(completeSignUpAction, null);
  return (
    <form action={action} className="form" data-testid="sign-up-complete-form">
      <input type="hidden" name="token" value={token} />
      <FormError as="div" data-testid="sign-up-complete-error">
        {state && !state.ok ? state.error.message : null}
      </FormError>
      <Button variant="primary" block type="submit" loading={pending} data-testid="sign-up-complete">
        {t('create', { organisation })}
      </Button>
    </form>
  );
}
