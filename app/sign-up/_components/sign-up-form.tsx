'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { requestSignUpAction } from '@/app/sign-up/actions';
import { PasswordForm } from '@/components/password-form';
import { ActionInput, ActionSelect } from '@/components/ui/action-field';
import { EMAIL_INPUT } from '@/components/ui/field';

/**
 * The sign-up form: the organisation, its first facility and its time zone, the manager's name, email
 * and password (the one password form, with its rules). Its answer reads the same for every email:
 * check your mail.
 */
export function SignUpForm({ zones }: { zones: string[] }) {
  const t = useTranslations('signUp');
  const id = useId();
  return (
    <PasswordForm
      action={requestSignUpAction}
      testId="sign-up"
      submit={t('submit')}
      done={t('sent')}
      doneOnly
      newLabel={t('password')}
      confirmLabel={t('passwordAgain')}
      fields={(state) => (
        <>
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
          <ActionInput
            state={state}
            id={`${id}-email`}
            label={t('email')}
            {...EMAIL_INPUT}
            data-testid="sign-up-email"
          />
        </>
      )}
    />
  );
}
