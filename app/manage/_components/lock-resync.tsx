'use client';

import { useFormatter, useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { resyncLockAction } from '@/app/manage/locks/actions';
import type { LockUnreachable } from '@/lib/locks/reconcile';
import { Button } from '@/components/ui/button';
import { FieldHint } from '@/components/ui/field';
import { ActionErrorText, ActionResult } from './action-result';
import styles from './locks.module.css';

type Found = { sentAgain: number; removing: number; foreign: number; unreached: LockUnreachable | null };

/** "Re-sync" for one lock: compares it with the provider, heals what it can, then says what it found. */
export function ResyncLockButton({ lockId, lockName }: { lockId: string; lockName: string }) {
  const t = useTranslations('locks');
  const format = useFormatter();
  const [state, action, pending] = useActionState(resyncLockAction, null);
  const id = useId();

  const summary = (found: Found) => {
    const parts = [
      found.sentAgain > 0 && t('resync.sentAgain', { count: found.sentAgain }),
      found.removing > 0 && t('resync.removed', { count: found.removing }),
      found.foreign > 0 && t('resync.foreign', { count: found.foreign }),
    ].filter((part): part is string => typeof part === 'string');
    const unreached = found.unreached && t('resync.unreached', { reason: t(`unreachable.${found.unreached}`) });
    if (unreached)
      return parts.length === 0 ? unreached : `${t('resync.done', { summary: format.list(parts) })} ${unreached}`;
    return parts.length === 0 ? t('resync.clean') : t('resync.done', { summary: format.list(parts) });
  };

  return (
    <form action={action} className={styles.action} data-testid="lock-resync-form">
      <input type="hidden" name="lockId" value={lockId} />
      <Button
        type="submit"
        loading={pending}
        loadingLabel={t('resync.pending')}
        aria-label={pending ? undefined : t('resync.label', { lock: lockName })}
        aria-describedby={`${id}-hint`}
        data-testid="lock-resync"
      >
        {t('resync.submit')}
      </Button>
      <FieldHint id={`${id}-hint`}>{t('resync.hint')}</FieldHint>
      <ActionResult
        attempt={state?.attempt}
        tone={state?.ok ? (state.data.foreign > 0 || state.data.unreached ? 'warning' : 'success') : 'error'}
        testId="lock-resync-result"
      >
        {state?.ok ? summary(state.data) : state && <ActionErrorText error={state.error} />}
      </ActionResult>
    </form>
  );
}
