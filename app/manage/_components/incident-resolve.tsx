'use client';

import { useActionState } from 'react';
import { resolveIncidentAction } from '@/app/manage/incidents/actions';

/** "Mark resolved" for one open incident; the row moves to the resolved list when the page revalidates. */
export function ResolveIncidentButton({
  incidentId,
  labels,
}: {
  incidentId: string;
  labels: { submit: string; pending: string; accessible: string };
}) {
  const [state, action, pending] = useActionState(resolveIncidentAction, null);
  return (
    <form action={action} className="inline-form" data-testid="incident-resolve-form">
      <input type="hidden" name="incidentId" value={incidentId} />
      <button
        type="submit"
        className="button button--secondary button--compact"
        disabled={pending}
        aria-label={labels.accessible}
        data-testid="incident-resolve"
      >
        {pending ? labels.pending : labels.submit}
      </button>
      {state && !state.ok && (
        <p role="alert" className="inline-error">
          {state.error.message}
        </p>
      )}
    </form>
  );
}
