'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import { connectLockProviderAction, testLockProviderAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { ActionInput } from '@/components/ui/action-field';
import { ActionResult } from './action-result';
import styles from './locks.module.css';

const PROVIDERS = ['simulator', 'seam', 'ttlock'] as const;
type Provider = (typeof PROVIDERS)[number];

type Props = {
  tenant: string;
  current: Provider;
};

/**
 * "Lock provider": the install's locks (those the operator assigned), or the tenant's own Seam or
 * TTLock account. Secrets are password fields, cleared after every answer and never sent back; the
 * server checks them with the provider before it keeps them.
 */
export function LockProviderForm({ tenant, current }: Props) {
  const t = useTranslations('locks.connect');
  const tp = useTranslations('locks.provider');
  const [state, action, pending] = useActionState(connectLockProviderAction, null);
  // "Test connection" answers beside the form without re-keying it: what was typed stays for saving.
  const [tested, test, testing] = useActionState(testLockProviderAction, null);
  const echoed = state && !state.ok ? state.values : null;
  const [chosen, setChosen] = useState<Provider>(
    (PROVIDERS as readonly string[]).includes(echoed?.provider ?? '') ? (echoed!.provider as Provider) : current,
  );
  const id = useId();
  const error = state && !state.ok ? state.error : null;
  const text = (name: 'clientId' | 'username' | 'endpoint', optional = false) => (
    <ActionInput
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={t(`field.${name}`)}
      hint={t(`hint.${name}`)}
      mono
      required={!optional}
      autoComplete="off"
      spellCheck={false}
      autoCapitalize="off"
      data-testid={`lock-provider-${name}`}
    />
  );
  // Never sent back: a secret is typed again after every answer.
  const secret = (name: 'apiKey' | 'clientSecret' | 'password') => (
    <ActionInput
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={t(`field.${name}`)}
      hint={name === 'apiKey' ? t('hint.apiKey') : undefined}
      echo={false}
      mono
      type="password"
      required
      autoComplete="new-password"
      spellCheck={false}
      autoCapitalize="off"
      data-testid={`lock-provider-${name}`}
    />
  );
  return (
    <section className={`card ${styles.provider}`} aria-labelledby={`${id}-title`} data-testid="lock-provider">
      <h2 id={`${id}-title`}>{t('title')}</h2>
      <p className="muted">{t('lead')}</p>
      <p data-testid="lock-provider-current" data-provider={current}>
        {t('current', { provider: current === 'simulator' ? t('currentInstall') : tp(current) })}
      </p>
      {/* Keyed by the answer: a new answer starts the fields afresh (the secrets empty). */}
      <form action={action} noValidate className="form" key={state?.attempt ?? 0} data-testid="lock-provider-form">
        <fieldset className={styles.providerChoice}>
          <legend>{t('choose')}</legend>
          {PROVIDERS.map((provider) => (
            <label key={provider} className={styles.providerOption}>
              <input
                type="radio"
                name="provider"
                value={provider}
                checked={chosen === provider}
                onChange={() => setChosen(provider)}
                data-testid={`lock-provider-choice-${provider}`}
              />{' '}
              {t(`option.${provider}`, { tenant })}
            </label>
          ))}
        </fieldset>
        {chosen === 'simulator' && <p className="muted">{t('installNote')}</p>}
        {chosen === 'seam' && secret('apiKey')}
        {chosen === 'ttlock' && (
          <>
            {text('clientId')}
            {secret('clientSecret')}
            {text('username')}
            {secret('password')}
            {text('endpoint', true)}
          </>
        )}
        <div className="form__submit-row">
          <Button
            type="submit"
            variant="primary"
            loading={pending}
            loadingLabel={t('pending')}
            data-testid="lock-provider-save"
          >
            {t('submit')}
          </Button>
          {chosen !== 'simulator' && (
            <Button
              type="submit"
              formAction={test}
              loading={testing}
              loadingLabel={t('testing')}
              data-testid="lock-provider-test"
            >
              {t('test')}
            </Button>
          )}
        </div>
      </form>
      <ActionResult
        attempt={tested?.attempt}
        tone={tested?.ok ? 'success' : 'error'}
        testId="lock-provider-test-result"
      >
        {tested?.ok
          ? tested.data.provider === 'simulator'
            ? t('testedInstall')
            : t('tested', { provider: tp(tested.data.provider) })
          : tested?.error.message}
      </ActionResult>
      <ActionResult attempt={state?.attempt} tone={state?.ok ? 'success' : 'error'} testId="lock-provider-result">
        {state?.ok
          ? t('saved', {
              provider: state.data.provider === 'simulator' ? t('currentInstall') : tp(state.data.provider),
            })
          : error?.message}
      </ActionResult>
    </section>
  );
}
