'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { updateProfileAction } from '@/app/account/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect } from '@/components/ui/action-field';
import { FormError, Notice } from '@/components/ui/notice';

/** "Your profile": the person's name and language (English or Japanese). */
export function ProfileForm({ name, locale }: { name: string; locale: 'en' | 'ja' }) {
  const t = useTranslations('account.profile');
  const languages = useTranslations('language');
  const [state, action, pending] = useActionState(updateProfileAction, null);
  const id = useId();
  return (
    <form action={action} noValidate className="form" data-testid="profile-form">
      <ActionInput
        state={state}
        id={`${id}-name`}
        name="name"
        label={t('name')}
        stored={state?.ok ? state.data.name : name}
        autoComplete="name"
        data-testid="profile-name"
      />
      <ActionSelect
        state={state}
        id={`${id}-locale`}
        name="locale"
        label={t('language')}
        stored={state?.ok ? (state.data.locale ?? locale) : locale}
        data-testid="profile-locale"
      >
        <option value="en" lang="en">
          {languages('en')}
        </option>
        <option value="ja" lang="ja">
          {languages('ja')}
        </option>
      </ActionSelect>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} data-testid="profile-save">
          {t('submit')}
        </Button>
      </div>
      {state?.ok && (
        <Notice tone="success" data-testid="profile-saved">
          {t('saved')}
        </Notice>
      )}
      {state && !state.ok && (
        <FormError as="div" data-testid="profile-error">
          {state.error.message}
        </FormError>
      )}
    </form>
  );
}
