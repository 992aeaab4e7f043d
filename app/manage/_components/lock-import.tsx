'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { importLocksAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { cx } from '@/components/ui/cx';
import { ActionErrorText, ActionResult } from './action-result';
import styles from './locks.module.css';

/** "Import locks from provider": reads the provider's devices into the tenant's locks, then says how many. */
export function ImportLocksButton({ primary }: { primary: boolean }) {
  const t = useTranslations('locks');
  const [state, action, pending] = useActionState(importLocksAction, null);
  return (
    <form action={action} className={cx(styles.action, primary && styles.centered)} data-testid="locks-import-form">
      <Button
        type="submit"
        variant={primary ? 'primary' : 'secondary'}
        loading={pending}
        loadingLabel={t('import.pending')}
        data-testid="locks-import"
      >
        {t('import.submit')}
      </Button>
      <ActionResult attempt={state?.attempt} tone={state?.ok ? 'success' : 'error'} testId="locks-import-result">
        {state?.ok ? t('import.done', state.data) : state && <ActionErrorText error={state.error} />}
      </ActionResult>
    </form>
  );
}
