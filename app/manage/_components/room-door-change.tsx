'use client';

import { useTranslations } from 'next-intl';
import { useActionState, useId } from 'react';
import { removeRoomDoorAction, replaceRoomLockAction } from '@/app/manage/locks/actions';
import { Button } from '@/components/ui/button';
import { Field, Select } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { ActionErrorText, ActionResult } from './action-result';
import styles from './setup.module.css';

type Door = { lockId: string; name: string; roleLabel: string };

/**
 * A room's doors with what a manager can do to each: "Remove door" (the room's live codes come off
 * that lock) and "Replace lock" with one of the tenant's unassigned locks (they go onto it). The
 * answers stand under the list, so they stay when the door they were about is gone from it.
 */
export function RoomDoors({
  roomId,
  doors,
  spareLocks,
}: {
  roomId: string;
  doors: Door[];
  spareLocks: { id: string; name: string }[];
}) {
  const t = useTranslations('rooms.doors');
  const [removed, remove, removing] = useActionState(removeRoomDoorAction, null);
  const [replaced, replace, replacing] = useActionState(replaceRoomLockAction, null);
  const id = useId();
  return (
    <>
      {doors.length === 0 ? (
        <Notice tone="warning" announce={false}>
          {t('empty')}
        </Notice>
      ) : (
        <ul data-testid="room-doors" className={styles.doors}>
          {doors.map((door) => (
            <li key={door.lockId} data-testid="room-door" data-lock-name={door.name}>
              <p>
                <strong>{door.name}</strong> <span className="muted">({door.roleLabel})</span>
              </p>
              <div className={styles.row}>
                <form action={remove}>
                  <input type="hidden" name="roomId" value={roomId} />
                  <input type="hidden" name="lockId" value={door.lockId} />
                  <Button
                    type="submit"
                    variant="danger"
                    loading={removing}
                    loadingLabel={t('removing')}
                    aria-describedby={`${id}-remove-hint`}
                    data-testid="room-door-remove"
                  >
                    {t('remove')}
                  </Button>
                </form>
                {spareLocks.length > 0 && (
                  <form action={replace} className={styles.row}>
                    <input type="hidden" name="roomId" value={roomId} />
                    <input type="hidden" name="oldLockId" value={door.lockId} />
                    <Field id={`${id}-${door.lockId}-new`} label={t('replaceWith')}>
                      {(control) => (
                        <Select {...control} name="newLockId" required data-testid="room-door-replace-lock">
                          {spareLocks.map((lock) => (
                            <option key={lock.id} value={lock.id}>
                              {lock.name}
                            </option>
                          ))}
                        </Select>
                      )}
                    </Field>
                    <Button
                      type="submit"
                      loading={replacing}
                      loadingLabel={t('replacing')}
                      data-testid="room-door-replace"
                    >
                      {t('replace')}
                    </Button>
                  </form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {doors.length > 0 && (
        <p id={`${id}-remove-hint`} className="muted">
          {t('removeHint')} {spareLocks.length > 0 ? t('replaceHint') : t('noSpare')}
        </p>
      )}
      {removed && (
        <ActionResult
          attempt={removed.attempt}
          tone={removed.ok ? 'success' : 'error'}
          testId="room-door-remove-result"
        >
          {removed.ok ? t('removed') : <ActionErrorText error={removed.error} />}
        </ActionResult>
      )}
      {replaced && (
        <ActionResult
          attempt={replaced.attempt}
          tone={replaced.ok ? 'success' : 'error'}
          testId="room-door-replace-result"
        >
          {replaced.ok ? t('replaced', { sent: replaced.data.keysSent }) : <ActionErrorText error={replaced.error} />}
        </ActionResult>
      )}
    </>
  );
}
