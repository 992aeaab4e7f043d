'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { saveRoomAction } from '@/app/manage/rooms/actions';
import { Button } from '@/components/ui/button';
import { ActionInput, ActionSelect } from '@/components/ui/action-field';
import { ActionResult } from './action-result';
import styles from './setup.module.css';

type Props = {
  /** The facilities a new room can go in (the first, or `facilityId`, chosen). */
  facilities: { id: string; name: string; bookingUnit: 'night' | 'hour' }[];
  facilityId?: string;
  /** The room being edited, its rate already in the currency's major unit. */
  room?: {
    id: string;
    label: string;
    rate: string;
    currency: string;
    rateUnit: 'night' | 'hour';
    rateName: string;
    pinLength: number;
    roomTypeId: string | null;
  };
  /** The room types the room may take: those on sale of its facility (and its own); a new room's, of any facility. */
  roomTypes?: { id: string; name: string; facilityId?: string }[];
};

/** A room's label and rate (amount in the currency's major unit, per night or hour, with a name) and PIN length. */
export function RoomForm({ facilities, facilityId, room, roomTypes = [] }: Props) {
  const t = useTranslations('rooms');
  const [state, action, pending] = useActionState(saveRoomAction, null);
  const id = useId();
  const chosen = facilities.find((f) => f.id === facilityId) ?? facilities[0];
  const input = (name: string, label: string, stored: string | number | undefined, props = {}) => (
    <ActionInput
      state={state}
      id={`${id}-${name}`}
      name={name}
      label={label}
      stored={stored}
      data-testid={`room-${name}`}
      {...props}
    />
  );
  const created = state?.ok && state.data.created;

  return (
    <form action={action} noValidate className="form" data-testid="room-form" key={state?.attempt ?? 0}>
      {room && <input type="hidden" name="roomId" value={room.id} />}
      <div className={styles.grid}>
        {!room && (
          <ActionSelect
            state={state}
            id={`${id}-facilityId`}
            name="facilityId"
            label={t('field.facility')}
            stored={chosen?.id}
            data-testid="room-facilityId"
          >
            {facilities.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </ActionSelect>
        )}
        {input('label', t('field.label'), room?.label, { required: true, maxLength: 100 })}
        {input('rate', t('field.rate'), room?.rate ?? '', { inputMode: 'decimal', required: true })}
        {input('currency', t('field.currency'), room?.currency.toUpperCase() ?? 'JPY', {
          maxLength: 3,
          autoCapitalize: 'characters',
        })}
        <ActionSelect
          state={state}
          id={`${id}-rateUnit`}
          name="rateUnit"
          label={t('field.rateUnit')}
          stored={room?.rateUnit ?? chosen?.bookingUnit ?? 'night'}
          data-testid="room-rateUnit"
        >
          <option value="night">{t('unit.night')}</option>
          <option value="hour">{t('unit.hour')}</option>
        </ActionSelect>
        {input('rateName', t('field.rateName'), room?.rateName ?? t('defaultRateName'), { maxLength: 100 })}
        {input('pinLength', t('field.pinLength'), room?.pinLength ?? 6, { type: 'number', min: 4, max: 10 })}
        {(room || roomTypes.length > 0) && (
          <ActionSelect
            state={state}
            id={`${id}-roomTypeId`}
            name="roomTypeId"
            label={t('field.roomType')}
            stored={room?.roomTypeId ?? ''}
            data-testid="room-roomTypeId"
          >
            <option value="">{t('noRoomType')}</option>
            {roomTypes.map((type) => (
              <option key={type.id} value={type.id}>
                {type.name}
              </option>
            ))}
          </ActionSelect>
        )}
      </div>
      <div className="form__submit-row">
        <Button variant="primary" type="submit" loading={pending} loadingLabel={t('saving')} data-testid="room-save">
          {room ? t('save') : t('create')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="room-result">
          {state.ok ? (created ? t('created') : t('saved')) : state.error.message}
        </ActionResult>
      )}
    </form>
  );
}
