'use client';

import { FormError } from '@/components/ui/notice';
import { Field, Input } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import { deleteGuestAction } from '@/app/desk/reservations/[id]/guest-actions';
import { Button } from '@/components/ui/button';

type Props = {
  reservationId: string;
  /** The guest's name as stored: typing it is the confirmation. */
  guestName: string;
};

function normalise(s: string): string {
  return s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
}

/**
 * "Delete guest’s personal data": irreversible, so the button stays disabled until the guest's name
 * has been typed (the server checks it again). On success the page re-renders with the tombstone.
 */
export function DeleteGuestForm({ reservationId, guestName }: Props) {
  const t = useTranslations('guestDelete');
  const [state, action, pending] = useActionState(deleteGuestAction, null);
  const [typed, setTyped] = useState('');
  const id = useId();
  const error = state && !state.ok ? state.error : null;
  const matches = normalise(typed) !== '' && normalise(typed) === normalise(guestName);
  return (
    <form action={action} noValidate className="form" aria-labelledby={`${id}-title`} data-testid="delete-guest-form">
      <h2 id={`${id}-title`}>{t('title')}</h2>
      <p className="muted">{t('lead')}</p>
      <input type="hidden" name="reservationId" value={reservationId} />
      <Field
        id={`${id}-name`}
        label={t('confirm')}
        hint={t('confirmHint', { name: guestName })}
        describedBy={`${id}-error`}
      >
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
          {pending ? t('pending') : t('submit')}
        </Button>
      </div>
    </form>
  );
}
