'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { sendTestMailAction } from '@/app/manage/mailbox/actions';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

/** "Send a test mail": an address (the manager's own to start with) and the mail server's answer in words. */
export function TestMailForm({ ownEmail }: { ownEmail: string }) {
  const t = useTranslations('mailbox.test');
  const [state, action, pending] = useActionState(sendTestMailAction, null);
  const id = useId();
  const typed = state && !state.ok ? state.values?.to : undefined;
  return (
    <form action={action} className="form" noValidate data-testid="test-mail-form" key={state?.attempt ?? 0}>
      <div className={styles.row}>
        <Field
          id={`${id}-to`}
          label={t('to')}
          error={state && !state.ok && state.error.field === 'to' ? state.error.message : undefined}
        >
          {(control) => (
            <Input
              {...control}
              name="to"
              type="email"
              required
              maxLength={254}
              defaultValue={typed ?? ownEmail}
              data-testid="test-mail-to"
            />
          )}
        </Field>
        <Button type="submit" loading={pending} loadingLabel={t('pending')} data-testid="test-mail-send">
          {t('submit')}
        </Button>
      </div>
      {state && (
        <ActionResult
          attempt={state.attempt}
          tone={state.ok && state.data.ok ? 'success' : 'error'}
          testId="test-mail-result"
        >
          {!state.ok
            ? state.error.message
            : state.data.ok
              ? t('sent', { to: state.data.to })
              : t('failed', { problem: t(`problem.${state.data.problem}`), answer: state.data.answer })}
        </ActionResult>
      )}
    </form>
  );
}
