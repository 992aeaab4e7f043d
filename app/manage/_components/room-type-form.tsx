'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId, useState } from 'react';
import { archiveRoomTypeAction, saveRoomTypeAction } from '@/app/manage/room-types/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionTextarea, typedValue } from '@/components/ui/action-field';
import { Field, Select } from '@/components/ui/field';
import { FormError } from '@/components/ui/notice';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

type FacilityChoice = { id: string; name: string; currency: string; bookingUnit: 'night' | 'hour' };

type Props = {
  /** The facilities a new type can go in (the first, or `facilityId`, chosen). */
  facilities: FacilityChoice[];
  facilityId?: string;
  /** The type being edited, its prices already in the currency's major unit ('' for "the same as"). */
  roomType?: {
    id: string;
    facility: FacilityChoice;
    name: string;
    description: string;
    capacity: number;
    weekday: string;
    weekend: string;
    holiday: string;
  };
};

/**
 * A room type's name, description, capacity and three prices, typed in the facility's currency per
 * the unit it sells by; an empty weekend (holiday) price is the weekday (weekend) price.
 */
export function RoomTypeForm({ facilities, facilityId, roomType }: Props) {
  const t = useTranslations('roomTypes');
  const [state, action, pending] = useActionState(saveRoomTypeAction, null);
  const id = useId();
  const [chosenId, setChosenId] = useState(
    typedValue(state, 'facilityId', facilities.find((f) => f.id === facilityId)?.id ?? facilities[0]?.id),
  );
  const facility = roomType?.facility ?? facilities.find((f) => f.id === chosenId) ?? facilities[0];
  const input = (name: string, label: string, stored: string | number | undefined, props = {}) => (
    <ActionInput
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={label}
      stored={stored}
      data-testid={`room-type-${name}`}
      {...props}
    />
  );
  const created = state?.ok && state.data.created;
  const money = { inputMode: 'decimal', autoComplete: 'off' } as const;

  return (
    <form action={action} noValidate className="form" data-testid="room-type-form" key={state?.attempt ?? 0}>
      {roomType && <input type="hidden" name="roomTypeId" value={roomType.id} />}
      <input type="hidden" name="currency" value={facility?.currency ?? 'jpy'} />
      <div className={styles.grid}>
        {!roomType && (
          <Field id={`${id}-facilityId`} label={t('field.facility')}>
            {(control) => (
              <Select
                {...control}
                name="facilityId"
                value={chosenId}
                onChange={(event) => setChosenId(event.target.value)}
                data-testid="room-type-facilityId"
              >
                {facilities.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
        {input('name', t('field.name'), roomType?.name, { required: true, maxLength: 80 })}
        {input('capacity', t('field.capacity'), roomType?.capacity ?? 2, { type: 'number', min: 1, max: 50 })}
      </div>
      <div className={styles.grid}>
        {input(
          'weekday',
          t('field.weekday', {
            currency: (facility?.currency ?? 'jpy').toUpperCase(),
            unit: t(`per.${facility?.bookingUnit ?? 'night'}`),
          }),
          roomType?.weekday ?? '',
          { ...money, required: true },
        )}
        {input('weekend', t('field.weekend'), roomType?.weekend ?? '', { ...money, hint: t('hint.weekend') })}
        {input('holiday', t('field.holiday'), roomType?.holiday ?? '', { ...money, hint: t('hint.holiday') })}
      </div>
      <ActionTextarea
        state={state}
        id={`${id}-description`}
        name="description"
        label={t('field.description')}
        stored={roomType?.description ?? ''}
        rows={3}
        maxLength={2000}
        data-testid="room-type-description"
      />
      <FormError data-testid="room-type-form-error">
        {state && !state.ok && state.error.fieldErrors ? t('error.summary') : null}
      </FormError>
      <div className="form__submit-row">
        <Button
          variant="primary"
          type="submit"
          loading={pending}
          loadingLabel={t('saving')}
          data-testid="room-type-save"
        >
          {roomType ? t('save') : t('create')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="room-type-result">
          {state.ok ? (created ? t('created') : t('saved')) : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}

/** "Archive room type": no longer sold; its rooms keep it until given another. */
export function RoomTypeArchiveButton({ roomTypeId }: { roomTypeId: string }) {
  const t = useTranslations('roomTypes.archive');
  const [state, action, pending] = useActionState(archiveRoomTypeAction, null);
  return (
    <form action={action} className="form" data-testid="room-type-archive-form">
      <input type="hidden" name="roomTypeId" value={roomTypeId} />
      <div>
        <Button type="submit" variant="danger" loading={pending} data-testid="room-type-archive">
          {t('archive')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="room-type-archive-result">
          {state.ok ? t('archived') : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}
