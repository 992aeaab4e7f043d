'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { addSimulatedLockAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { ActionErrorText, ActionResult } from './action-result';
import styles from './locks.module.css';

/** "Add a simulated lock" (an install running its lock simulator only): a new device, then where to put it. */
export function AddSimulatedLockButton() {
  const t = useTranslations('locks.simulated');
  const [state, action, pending] = useActionState(addSimulatedLockAction, null);
  return (
    <form action={action} className={styles.action} data-testid="locks-simulated-form">
      <Button type="submit" loading={pending} loadingLabel={t('pending')} data-testid="locks-simulated-add">
        {t('submit')}
      </Button>
      <p className="muted">{t('hint')}</p>
      <ActionResult attempt={state?.attempt} tone={state?.ok ? 'success' : 'error'} testId="locks-simulated-result">
        {state?.ok ? t('done', state.data) : state && <ActionErrorText error={state.error} />}
      </ActionResult>
    </form>
  );
}
