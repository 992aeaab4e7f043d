'use client';

import { FormError } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useActionState, useId, useState } from 'react';
import { deleteGuestAction } from '@/app/desk/reservations/[id]/guest-actions';
import { Button } from '@/components/ui/button';

export type DeleteGuestLabels = {
  title: string;
  lead: string;
  confirm: string;
  confirmHint: string;
  submit: string;
  pending: string;
};

type Props = {
  reservationId: string;
  /** The guest's name as stored: typing it is the confirmation. */
  guestName: string;
  labels: DeleteGuestLabels;
};

function normalise(s: string): string {
  return s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}

/**
 * "Delete guest’s personal data": irreversible, so the button stays disabled until the guest's name
 * has been typed (the server checks it again). On success the page re-renders with the tombstone.
 */
export function DeleteGuestForm({ reservationId, guestName, labels }: Props) {
  const [state, action, pending] = useActionState(deleteGuestAction, null);
  const [typed, setTyped] = useState('');
  const id = useId();
  const error = state && !state.ok ? state.error : null;
  const matches = normalise(typed) !== '' && normalise(typed) === normalise(guestName);
  return (
    <form action={action} noValidate className="form" aria-labelledby={`${id}-title`} data-testid="delete-guest-form">
      <h2 id={`${id}-title`}>{labels.title}</h2>
      <p className="muted">{labels.lead}</p>
      <input type="hidden" name="reservationId" value={reservationId} />
      <Field id={`${id}-name`} label={labels.confirm} hint={labels.confirmHint} describedBy={`${id}-error`}>
        {(control) => (
          <Input
            {...control}
            name="confirmName"
            type="text"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={error?.field === 'confirmName' ? true : undefined}
          />
        )}
      </Field>
      <FormError id={`${id}-error`}>{error?.message}</FormError>
      <div>
        <Button variant="danger" type="submit" disabled={pending || !matches}>
          {pending ? labels.pending : labels.submit}
        </Button>
      </div>
    </form>
  );
}
