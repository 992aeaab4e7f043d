'use client';

import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { issueBackupCodeAction } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';

/** "Issue a backup code" for a key whose code is not on its door, where the lock's provider keeps a pool. */
export function IssueBackupCodeButton({ keyId }: { keyId: string }) {
  const t = useTranslations('key.backup');
  const [state, action, pending] = useActionState(issueBackupCodeAction, null);
  return (
    <form action={action} className="inline-form" data-testid="issue-backup-form">
      <input type="hidden" name="keyId" value={keyId} />
      <Button size="compact" variant="secondary" type="submit" disabled={pending} data-testid="issue-backup">
        {pending ? t('pending') : t('submit')}
      </Button>
      {state && (
        <Notice tone={state.ok ? 'success' : 'error'} variant="inline" data-testid="issue-backup-result">
          {state.ok ? t('done') : state.error.message}
        </Notice>
      )}
    </form>
  );
}
