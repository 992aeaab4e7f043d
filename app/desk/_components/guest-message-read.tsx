'use client';

import { useActionState } from 'react';
import { markGuestMessageReadAction } from '@/app/desk/guest-message-actions';
import { Button } from '@/components/ui/button';
import { formErrorClassName } from '@/components/ui/notice';

/** "Mark read" for one guest message; its words come translated from the server. */
export function GuestMessageRead({
  messageId,
  words,
}: {
  messageId: string;
  words: { label: string; accessibleName: string };
}) {
  const [state, action, pending] = useActionState(markGuestMessageReadAction, null);
  return (
    <form action={action} className="inline-form" data-testid="guest-message-read-form">
      <input type="hidden" name="messageId" value={messageId} />
      <Button type="submit" size="compact" disabled={pending} aria-label={words.accessibleName}>
        {words.label}
      </Button>
      {state && !state.ok && (
        <span role="status" className={formErrorClassName}>
          {state.error.message}
        </span>
      )}
    </form>
  );
}
