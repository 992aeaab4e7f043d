'use client';

import { useActionState, useId } from 'react';
import { rotateGuestLinkAction } from '@/app/desk/actions';

export type RotateGuestLinkLabels = { submit: string; hint: string; pending: string; done: string };

/** "Replace the guest link": the current link stops working at once (audited); the page shows the new one. */
export function RotateGuestLinkForm({
  reservationId,
  labels,
}: {
  reservationId: string;
  labels: RotateGuestLinkLabels;
}) {
  const [state, action, pending] = useActionState(rotateGuestLinkAction, null);
  const id = useId();
  return (
    <form action={action} className="form" data-testid="rotate-guest-link-form">
      <input type="hidden" name="reservationId" value={reservationId} />
      <p id={`${id}-hint`} className="field__hint">
        {labels.hint}
      </p>
      <div>
        <button type="submit" className="button button--secondary" disabled={pending} aria-describedby={`${id}-hint`}>
          {pending ? labels.pending : labels.submit}
        </button>
      </div>
      <p
        role="status"
        className={state && !state.ok ? 'form__error' : 'muted small'}
        data-testid="rotate-guest-link-result"
      >
        {state ? (state.ok ? labels.done : state.error.message) : null}
      </p>
    </form>
  );
}
