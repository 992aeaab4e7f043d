'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { addRoomLockAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/field';
import { ActionErrorText, ActionResult } from './action-result';
import styles from './locks.module.css';

const ROLES = ['room', 'entrance', 'other'] as const;

type Props = {
  lockId: string;
  /** Every room of the tenant; those in `doorOf` already have this lock and are not offered. */
  rooms: { id: string; label: string }[];
  doorOf: string[];
};

/** Which of a room's doors a lock is (its own, a shared entrance, another): the `role` field of both door forms. */
export function DoorRoleField({ id, testId }: { id: string; testId: string }) {
  const t = useTranslations('locks.addDoor');
  return (
    <Field id={id} label={t('role')}>
      {(control) => (
        <Select {...control} name="role" defaultValue="room" data-testid={testId}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`roleOption.${role}`)}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

/** "Add this lock to a room": pick a room and which of its doors the lock is; the room's live codes follow. */
export function AddDoorForm({ lockId, rooms, doorOf }: Props) {
  const t = useTranslations('locks.addDoor');
  const [state, action, pending] = useActionState(addRoomLockAction, null);
  const id = useId();
  const offered = rooms.filter((room) => !doorOf.includes(room.id));
  const added = state?.ok ? rooms.find((room) => room.id === state.data.roomId) : undefined;
  return (
    <details className={styles.addDoor} data-testid="lock-add-door">
      <summary>{t('summary')}</summary>
      <div className={styles.action}>
        {offered.length === 0 ? (
          <p className="muted">{t('noRooms')}</p>
        ) : (
          <form action={action} className="form" data-testid="lock-add-door-form">
            <input type="hidden" name="lockId" value={lockId} />
            <div className={styles.addDoorFields}>
              <Field id={`${id}-room`} label={t('room')}>
                {(control) => (
                  <Select {...control} name="roomId" required data-testid="lock-add-door-room">
                    {offered.map((room) => (
                      <option key={room.id} value={room.id}>
                        {room.label}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <DoorRoleField id={`${id}-role`} testId="lock-add-door-role" />
            </div>
            <div>
              <Button type="submit" loading={pending} loadingLabel={t('pending')} data-testid="lock-add-door-submit">
                {t('submit')}
              </Button>
            </div>
          </form>
        )}
        <ActionResult attempt={state?.attempt} tone={state?.ok ? 'success' : 'error'} testId="lock-add-door-result">
          {state?.ok ? t('done', { room: added?.label ?? '' }) : state && <ActionErrorText error={state.error} />}
        </ActionResult>
      </div>
    </details>
  );
}
