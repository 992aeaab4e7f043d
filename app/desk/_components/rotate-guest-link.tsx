'use client';

import { formErrorClassName } from '@/components/ui/notice';
import { FieldHint } from '@/components/ui/field';
import { useActionState, useId } from 'react';
import { rotateGuestLinkAction } from '@/app/desk/actions';
import { Button } from '@/components/ui/button';

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
      <FieldHint id={`${id}-hint`}>{labels.hint}</FieldHint>
      <div>
        <Button type="submit" disabled={pending} aria-describedby={`${id}-hint`}>
          {pending ? labels.pending : labels.submit}
        </Button>
      </div>
      <p
        role="status"
        className={state && !state.ok ? formErrorClassName : 'muted small'}
        data-testid="rotate-guest-link-result"
      >
        {state ? (state.ok ? labels.done : state.error.message) : null}
      </p>
    </form>
  );
}
