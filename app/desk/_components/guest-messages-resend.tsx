'use client';

import { useActionState } from 'react';
import { resendLinkAction } from '@/app/desk/reservations/[id]/message-actions';
import { Button } from '@/components/ui/button';
import { formErrorClassName } from '@/components/ui/notice';

/** "Resend link", with what came of it; its words come translated from the server (the list is a Server Component). */
export function ResendLinkForm({
  reservationId,
  words,
}: {
  reservationId: string;
  words: { label: string; accessibleName: string; pending: string; done: string };
}) {
  const [state, action, pending] = useActionState(resendLinkAction, null);
  return (
    <form action={action} className="form" data-testid="resend-link-form">
      <input type="hidden" name="reservationId" value={reservationId} />
      <div>
        <Button type="submit" disabled={pending} aria-label={words.accessibleName}>
          {pending ? words.pending : words.label}
        </Button>
      </div>
      <p
        role="status"
        className={state && !state.ok ? formErrorClassName : 'muted small'}
        data-testid="resend-link-result"
      >
        {state ? (state.ok ? words.done : state.error.message) : null}
      </p>
    </form>
  );
}
