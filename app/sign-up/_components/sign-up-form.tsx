'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { requestSignUpAction } from '@/app/sign-up/actions';
import { ActionInput, ActionSelect } from '@/components/ui/action-field';
import { Button } from '@/components/ui/button';
import { EMAIL_INPUT } from '@/components/ui/field';
import { FormError, Notice } from '@/components/ui/notice';

/**
 * The sign-up form: the organisation, its first facility and its time zone, the manager's name and email — no
 * password: it is chosen on the page of the link mailed to the email, by whoever follows it (issue 43.1). Its answer
 * reads the same for every email: check your mail.
 */
export function SignUpForm({ zones }: { zones: string[] }) {
  const t = useTranslations('signUp');
  const id = useId();
  const [state, action, pending] = useActionState(requestSignUpAction, null);
  if (state?.ok)
    return (
      <Notice tone="success" data-testid="sign-up-done">
        {t('sent')}
      </Notice>
    );
  const general = state && !state.ok && !state.error.field && !state.error.fieldErrors ? state.error.message : null;
  return (
    <form action={action} className="form" data-testid="sign-up" key={state?.attempt ?? 0}>
      <ActionInput
        state={state}
        id={`${id}-organisationName`}
        name="organisationName"
        label={t('organisationName')}
        hint={t('organisationNameHint')}
        required
        maxLength={200}
        autoComplete="organization"
        data-testid="sign-up-organisationName"
      />
      <ActionInput
        state={state}
        id={`${id}-facilityName`}
        name="facilityName"
        label={t('facilityName')}
        hint={t('facilityNameHint')}
        required
        maxLength={200}
        data-testid="sign-up-facilityName"
      />
      <ActionSelect
        state={state}
        id={`${id}-timeZone`}
        name="timeZone"
        label={t('timeZone')}
        stored="Asia/Tokyo"
        data-testid="sign-up-timeZone"
      >
        {zones.map((zone) => (
          <option key={zone} value={zone}>
            {zone}
          </option>
        ))}
      </ActionSelect>
      <ActionInput
        state={state}
        id={`${id}-name`}
        name="name"
        label={t('name')}
        required
        maxLength={200}
        autoComplete="name"
        data-testid="sign-up-name"
      />
      <ActionInput state={state} id={`${id}-email`} label={t('email')} {...EMAIL_INPUT} data-testid="sign-up-email" />
      <FormError as="div" data-testid="sign-up-error">
        {general}
      </FormError>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} data-testid="sign-up-submit">
          {t('submit')}
        </Button>
      </div>
    </form>
  );
}
