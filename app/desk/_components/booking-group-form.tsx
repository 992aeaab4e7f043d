'use client';

import { Badge } from '@/components/ui/badge';
import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import { bookGroupAction, type BookGroupState } from '@/app/desk/bookings/actions';
import { Button } from '@/components/ui/button';
import { Field, FieldError, FieldHint, Input, Select } from '@/components/ui/field';
import { FormError } from '@/components/ui/notice';

const FIELDS: readonly string[] = ['name', 'email', 'phone', 'roomIds'];

/** A room on offer; `rate` says its rate, unit, name and the booking's amount, already formatted in the reader's locale. */
export type BookingRoomOption = { id: string; label: string; available: boolean; rate: string };

type Props = {
  /** The stay every chosen room is booked for, as ISO instants (posted back and re-checked by the server). */
  startsAt: string;
  endsAt: string;
  rooms: BookingRoomOption[];
  /** A room to tick from the start (the grid's "book this room from this day"). */
  preselected?: string;
};

/**
 * Step 2 of a group booking: the guest and the rooms. Posts to `bookGroupAction`; when rooms were
 * taken meanwhile, exactly those are marked in the list (nothing was held) and the rest of the
 * selection and the guest fields are kept. Works before hydration too (a plain form post).
 */
export function BookingGroupForm({ startsAt, endsAt, rooms, preselected }: Props) {
  const t = useTranslations('bookingForm');
  const [state, action, pending] = useActionState(bookGroupAction, null);
  const id = useId();
  const messageId = `${id}-message`;
  const refused = state && !state.ok ? state : null;
  const error = refused?.error;
  const failedLabels = rooms.filter((r) => error?.roomIds?.includes(r.id)).map((r) => r.label);
  // A refused field shows its message beside it; the rest (the stay's dates, a conflict) above the form.
  const message =
    error?.code === 'invalid_request' && error.fieldErrors
      ? Object.entries(error.fieldErrors).find(([field]) => !FIELDS.includes(field))?.[1]
      : error?.message;
  return (
    // noValidate: the server's messages (translated, inline) are the ones the user sees.
    <form action={action} noValidate className="form booking-form">
      <input type="hidden" name="startsAt" value={startsAt} />
      <input type="hidden" name="endsAt" value={endsAt} />
      <FormError as="div" id={messageId}>
        {message && <p className="booking-form__message">{message}</p>}
        {failedLabels.length > 0 && (
          <p className="booking-form__message">{t('conflictRooms', { rooms: failedLabels.join(', ') })}</p>
        )}
      </FormError>
      {/* Remounted with every answer so the echoed values become the fields' defaults again. */}
      <BookingFields
        key={state?.attempt ?? 0}
        refused={refused}
        rooms={rooms}
        pending={pending}
        messageId={messageId}
        preselected={state ? undefined : preselected}
      />
    </form>
  );
}

type FieldsProps = {
  refused: Extract<BookGroupState, { ok: false }> | null;
  rooms: BookingRoomOption[];
  pending: boolean;
  messageId: string;
  preselected?: string;
};

function BookingFields({ refused, rooms, pending, messageId, preselected }: FieldsProps) {
  const t = useTranslations('bookingForm');
  const id = useId();
  const failed = new Set(refused?.error.roomIds ?? []);
  const bookable = (room: BookingRoomOption) => room.available && !failed.has(room.id);
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () =>
      new Set(
        (refused?.values.roomIds ?? (preselected ? [preselected] : [])).filter((roomId) =>
          rooms.some((r) => r.id === roomId && bookable(r)),
        ),
      ),
  );
  const count = rooms.filter((r) => bookable(r) && selected.has(r.id)).length;
  const errors = refused?.error.fieldErrors ?? {};
  const toggle = (roomId: string, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(roomId);
      else next.delete(roomId);
      return next;
    });
  const describedBy = (...ids: (string | false | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;
  const submitLabel = pending
    ? t('pending')
    : count === 0
      ? t('submitNone')
      : count === 1
        ? t('submitOne')
        : t('submitMany', { count });

  return (
    <>
      <fieldset className="fieldset">
        <legend>{t('guest')}</legend>
        <div className="field-row">
          <TextField
            id={`${id}-name`}
            name="name"
            label={t('name')}
            defaultValue={refused?.values.name}
            error={errors.name}
            required
            autoComplete="off"
          />
          <TextField
            id={`${id}-email`}
            name="email"
            type="email"
            label={t('email')}
            defaultValue={refused?.values.email}
            error={errors.email}
            autoComplete="off"
          />
          <TextField
            id={`${id}-phone`}
            name="phone"
            type="tel"
            label={t('phone')}
            defaultValue={refused?.values.phone}
            error={errors.phone}
            autoComplete="off"
          />
          <Field id={`${id}-locale`} label={t('locale')} hint={t('localeHint')}>
            {(control) => (
              <Select {...control} name="locale" defaultValue={refused?.values.locale ?? ''}>
                <option value="">{t('localeDefault')}</option>
                <option value="en">English</option>
                <option value="ja" lang="ja">
                  日本語
                </option>
              </Select>
            )}
          </Field>
        </div>
      </fieldset>

      <fieldset
        className="fieldset"
        aria-describedby={describedBy(`${id}-rooms-hint`, errors.roomIds && `${id}-rooms-error`)}
      >
        <legend>{t('rooms')}</legend>
        <FieldHint id={`${id}-rooms-hint`}>{t('roomsHint')}</FieldHint>
        {errors.roomIds && <FieldError id={`${id}-rooms-error`}>{errors.roomIds}</FieldError>}
        <ul className="room-choices">
          {rooms.map((room) => {
            const isFailed = failed.has(room.id);
            const statusId = `${id}-room-${room.id}-status`;
            const disabled = !bookable(room);
            return (
              <li key={room.id}>
                <label
                  className={`room-choice${isFailed ? ' room-choice--failed' : disabled ? ' room-choice--disabled' : ''}`}
                  data-room-id={room.id}
                >
                  <input
                    type="checkbox"
                    name="roomIds"
                    value={room.id}
                    checked={!disabled && selected.has(room.id)}
                    disabled={disabled}
                    onChange={(event) => toggle(room.id, event.target.checked)}
                    aria-describedby={describedBy(`${statusId}-rate`, disabled && statusId, isFailed && messageId)}
                  />
                  <span className="room-choice__body">
                    <span className="room-choice__label">{room.label}</span>
                    <span id={`${statusId}-rate`} className="room-choice__rate">
                      {room.rate}
                    </span>
                  </span>
                  {isFailed ? (
                    <Badge id={statusId} tone="danger">
                      {t('failed')}
                    </Badge>
                  ) : (
                    !room.available && <Badge id={statusId}>{t('booked')}</Badge>
                  )}
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>

      <div>
        <Button variant="primary" type="submit" disabled={pending}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}

type TextFieldProps = {
  id: string;
  name: string;
  label: string;
  type?: 'text' | 'email' | 'tel';
  defaultValue: string | undefined;
  error: string | undefined;
  required?: boolean;
  autoComplete: string;
};

function TextField({ id, name, label, type = 'text', defaultValue, error, required, autoComplete }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      {(control) => (
        <Input
          {...control}
          name={name}
          type={type}
          required={required}
          autoComplete={autoComplete}
          defaultValue={defaultValue ?? ''}
        />
      )}
    </Field>
  );
}
