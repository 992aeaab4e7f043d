'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { addLockByDeviceAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { ActionInput } from '@/components/ui/action-field';
import { ActionErrorText, ActionResult } from './action-result';
import styles from './locks.module.css';

/**
 * "Add one lock by its device id" (a tenant on its own Seam or TTLock account): that one device becomes the tenant's
 * lock, without importing every device the account lists.
 */
export function AddLockByDeviceForm() {
  const t = useTranslations('locks.byDevice');
  const id = useId();
  const [state, action, pending] = useActionState(addLockByDeviceAction, null);
  return (
    <form action={action} noValidate className={styles.action} data-testid="locks-by-device-form">
      <ActionInput
        state={state}
        id={`${id}-device`}
        name="deviceId"
        label={t('label')}
        hint={t('hint')}
        mono
        required
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="off"
        data-testid="locks-by-device-id"
      />
      <Button type="submit" variant="secondary" loading={pending} data-testid="locks-by-device-add">
        {t('submit')}
      </Button>
      <ActionResult attempt={state?.attempt} tone={state?.ok ? 'success' : 'error'} testId="locks-by-device-result">
        {state?.ok
          ? t(state.data.imported > 0 ? 'done' : 'already', { name: state.data.name })
          : state && <ActionErrorText error={state.error} />}
      </ActionResult>
    </form>
  );
}
