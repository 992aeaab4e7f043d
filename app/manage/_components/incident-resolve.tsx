'use client';

import { Notice } from '@/components/ui/notice';
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { acknowledgeDriftAction, resolveIncidentAction } from '@/app/manage/incidents/actions';
import { Button } from '@/components/ui/button';

type IncidentAction = typeof resolveIncidentAction | typeof acknowledgeDriftAction;

/** One button that sends an incident's id to `action`, with its words and the action's error beside it. */
function IncidentButton(props: {
  incidentId: string;
  action: IncidentAction;
  words: { submit: string; pending: string; label: string; hint?: string };
  testId: string;
}) {
  const [state, action, pending] = useActionState(props.action as typeof resolveIncidentAction, null);
  return (
    <form action={action} className="inline-form" data-testid={`${props.testId}-form`}>
      <input type="hidden" name="incidentId" value={props.incidentId} />
      <Button
        size="compact"
        type="submit"
        disabled={pending}
        aria-label={props.words.label}
        title={props.words.hint}
        data-testid={props.testId}
      >
        {pending ? props.words.pending : props.words.submit}
      </Button>
      {state && !state.ok && (
        <Notice tone="error" variant="inline">
          {state.error.message}
        </Notice>
      )}
    </form>
  );
}

/** "Mark resolved" for one open incident; the row moves to the resolved list when the page revalidates. */
export function ResolveIncidentButton({ incidentId, summary }: { incidentId: string; summary: string }) {
  const t = useTranslations('incidents.resolve');
  return (
    <IncidentButton
      incidentId={incidentId}
      action={resolveIncidentAction}
      words={{ submit: t('submit'), pending: t('pending'), label: t('label', { summary }) }}
      testId="incident-resolve"
    />
  );
}

/**
 * "Acknowledge these codes" for a lock's drift incident about codes UnlockOS did not make (managers):
 * they stay on the lock, and the incident does not come back until a different code appears.
 */
export function AcknowledgeDriftButton({ incidentId, summary }: { incidentId: string; summary: string }) {
  const t = useTranslations('incidents.acknowledge');
  return (
    <IncidentButton
      incidentId={incidentId}
      action={acknowledgeDriftAction}
      words={{ submit: t('submit'), pending: t('pending'), label: t('label', { summary }), hint: t('hint') }}
      testId="incident-acknowledge"
    />
  );
}
