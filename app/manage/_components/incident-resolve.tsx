'use client';

import { Notice } from '@/components/ui/notice';
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { acknowledgeDriftAction, resolveIncidentAction } from '@/app/manage/incidents/actions';
import { Button } from '@/components/ui/button';

/** "Mark resolved" for one open incident; the row moves to the resolved list when the page revalidates. */
export function ResolveIncidentButton({ incidentId, summary }: { incidentId: string; summary: string }) {
  const t = useTranslations('incidents.resolve');
  const [state, action, pending] = useActionState(resolveIncidentAction, null);
  return (
    <form action={action} className="inline-form" data-testid="incident-resolve-form">
      <input type="hidden" name="incidentId" value={incidentId} />
      <Button
        size="compact"
        type="submit"
        disabled={pending}
        aria-label={t('label', { summary })}
        data-testid="incident-resolve"
      >
        {pending ? t('pending') : t('submit')}
      </Button>
      {state && !state.ok && (
        <Notice tone="error" variant="inline">
          {state.error.message}
        </Notice>
      )}
    </form>
  );
}

/**
 * "Acknowledge these codes" for a lock's drift incident about codes UnlockOS did not make (managers):
 * they stay on the lock, and the incident does not come back until a different code appears.
 */
export function AcknowledgeDriftButton({ incidentId, summary }: { incidentId: string; summary: string }) {
  const t = useTranslations('incidents.acknowledge');
  const [state, action, pending] = useActionState(acknowledgeDriftAction, null);
  return (
    <form action={action} className="inline-form" data-testid="incident-acknowledge-form">
      <input type="hidden" name="incidentId" value={incidentId} />
      <Button
        size="compact"
        type="submit"
        disabled={pending}
        aria-label={t('label', { summary })}
        title={t('hint')}
        data-testid="incident-acknowledge"
      >
        {pending ? t('pending') : t('submit')}
      </Button>
      {state && !state.ok && (
        <Notice tone="error" variant="inline">
          {state.error.message}
        </Notice>
      )}
    </form>
  );
}
