'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import { addBookingSourceAction, removeBookingSourceAction } from '@/app/manage/booking-sources/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect, typedValue } from '@/components/ui/action-field';
import { Field, Select } from '@/components/ui/field';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

/**
 * "Map an event type": a Calendly event type URI (or id), a Cal.com event type id or an Acuity
 * appointment type id, and the room its bookings take, or the room type whose free room each
 * booking gets.
 */
export function AddBookingSourceForm({
  rooms,
  roomTypes = [],
}: {
  rooms: { id: string; label: string }[];
  roomTypes?: { id: string; name: string }[];
}) {
  const t = useTranslations('bookingSources');
  const [state, action, pending] = useActionState(addBookingSourceAction, null);
  const [provider, setProvider] = useState(typedValue(state, 'provider', 'calendly'));
  const id = useId();
  return (
    <form action={action} noValidate className="form" data-testid="booking-source-form" key={state?.attempt ?? 0}>
      <div className={styles.grid}>
        <Field id={`${id}-provider`} label={t('field.provider')}>
          {(control) => (
            <Select
              {...control}
              name="provider"
              value={provider}
              onChange={(event) => setProvider(event.target.value)}
              data-testid="booking-source-provider"
            >
              <option value="calendly">Calendly</option>
              <option value="cal">Cal.com</option>
              <option value="acuity">Acuity</option>
            </Select>
          )}
        </Field>
        <ActionInput
          state={state}
          id={`${id}-eventType`}
          name="eventType"
          label={t('field.eventType')}
          hint={t(`hint.${provider === 'cal' || provider === 'acuity' ? provider : 'calendly'}`)}
          autoComplete="off"
          maxLength={500}
          data-testid="booking-source-eventType"
        />
        <ActionSelect
          state={state}
          id={`${id}-roomId`}
          name="roomId"
          label={roomTypes.length > 0 ? t('field.target') : t('field.room')}
          stored={rooms[0]?.id}
          data-testid="booking-source-room"
        >
          <optgroup label={t('target.room')}>
            {rooms.map((room) => (
              <option key={room.id} value={room.id}>
                {room.label}
              </option>
            ))}
          </optgroup>
          {roomTypes.length > 0 && (
            <optgroup label={t('target.roomType')}>
              {roomTypes.map((type) => (
                <option key={type.id} value={`type:${type.id}`}>
                  {t('roomTypeOption', { name: type.name })}
                </option>
              ))}
            </optgroup>
          )}
        </ActionSelect>
      </div>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} data-testid="booking-source-add">
          {t('add')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="booking-source-result">
          {state.ok ? t('added') : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}

/** "Remove" one mapping; its event type's bookings are ignored from then on. */
export function RemoveBookingSourceButton({ sourceId, label }: { sourceId: string; label: string }) {
  const t = useTranslations('bookingSources');
  const [state, action, pending] = useActionState(removeBookingSourceAction, null);
  return (
    <form action={action}>
      <input type="hidden" name="sourceId" value={sourceId} />
      <Button
        type="submit"
        size="compact"
        variant="danger"
        loading={pending}
        aria-label={t('removeLabel', { eventType: label })}
        data-testid="booking-source-remove"
      >
        {t('remove')}
      </Button>
      {state && !state.ok && (
        <ActionResult attempt={state.attempt} tone="error" testId="booking-source-remove-result">
          {state.error.message}
        </ActionResult>
      )}
    </form>
  );
}
