'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { addRoomLockAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/field';
import { ActionErrorText, ActionResult } from './action-result';
import { DoorRoleField } from './lock-door-add';
import styles from './setup.module.css';

/** "Add a door" to one room: one of the tenant's locks and which door it is (the Locks page's action). */
export function RoomDoorAddForm({ roomId, locks }: { roomId: string; locks: { id: string; name: string }[] }) {
  const t = useTranslations('locks.addDoor');
  const r = useTranslations('rooms.doors');
  const [state, action, pending] = useActionState(addRoomLockAction, null);
  const id = useId();
  if (locks.length === 0) return <p className="muted">{r('noLocks')}</p>;
  return (
    <form action={action} className="form" data-testid="room-door-add-form">
      <input type="hidden" name="roomId" value={roomId} />
      <div className={styles.row}>
        <Field id={`${id}-lock`} label={r('lock')}>
          {(control) => (
            <Select {...control} name="lockId" required data-testid="room-door-lock">
              {locks.map((lock) => (
                <option key={lock.id} value={lock.id}>
                  {lock.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <DoorRoleField id={`${id}-role`} testId="room-door-role" />
        <Button type="submit" loading={pending} loadingLabel={t('pending')} data-testid="room-door-add">
          {t('submit')}
        </Button>
      </div>
      {state && (
        <ActionResult attempt={state.attempt} tone={state.ok ? 'success' : 'error'} testId="room-door-result">
          {state.ok ? r('added') : <ActionErrorText error={state.error} />}
        </ActionResult>
      )}
    </form>
  );
}
