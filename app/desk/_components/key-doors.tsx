import { useFormatter, useTranslations } from 'next-intl';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Notice } from '@/components/ui/notice';
import type { ReservationDetail } from '@/lib/desk/reservation-detail';
import { DoorErrorText } from '@/app/desk/_components/door-error';
import styles from './key-doors.module.css';

export type KeyDoor = ReservationDetail['accessKeys'][number]['doors'][number];
type DoorState = KeyDoor['state'];

const STATE_TONE: Record<DoorState, BadgeTone> = {
  pending: 'info',
  setting: 'info',
  set: 'success',
  failed: 'danger',
  removing: 'info',
  removed: 'success',
  remove_failed: 'danger',
  valid_until_end: 'warning',
};

/**
 * Whether an offline code on this door still opens it: revoked here, but the lock accepts it until
 * the key's end and nothing can remove it before then.
 */
export function stillOpensUntilEnd(door: KeyDoor, until: Date, now: Date): boolean {
  return door.state === 'valid_until_end' && until > now;
}

type Props = {
  doors: KeyDoor[];
  /** The key's end: when an offline code stops opening its lock by itself. */
  until: Date;
  /** The facility's IANA zone. */
  zone: string;
  now: Date;
  /** Id for the list's heading (one per key card). */
  headingId: string;
};

/**
 * Where a key's code stands on each of its room's doors: the lock's name, the state in words with a
 * tone, the error in plain words, and for an offline code left valid on its lock, until when it
 * still opens it. Never a PIN.
 */
export function KeyDoors({ doors, until, zone, now, headingId }: Props) {
  const t = useTranslations('key.door');
  const format = useFormatter();
  if (doors.length === 0) return null;
  const end = format.dateTime(until, 'stamp', { timeZone: zone });
  return (
    <div className={styles.doors}>
      <h3 id={headingId} className={styles.title}>
        {t('title')}
      </h3>
      <ul className={styles.list} aria-labelledby={headingId}>
        {doors.map((door) => {
          const lock = door.lock.name;
          const endedOnLock = door.state === 'valid_until_end' && until <= now;
          return (
            <li
              key={door.lock.id}
              className={styles.door}
              data-testid="key-door"
              data-lock-id={door.lock.id}
              data-door-state={door.state}
            >
              <div className={styles.head}>
                <span className={styles.lock}>{lock}</span>
                <span className="badge-row">
                  <Badge tone={endedOnLock ? 'neutral' : STATE_TONE[door.state]} data-testid="door-state">
                    {endedOnLock ? t('endedOnLock') : t(`state.${door.state}`)}
                  </Badge>
                  {door.offline && !endedOnLock && <Badge data-testid="door-offline">{t('offline')}</Badge>}
                </span>
              </div>
              {stillOpensUntilEnd(door, until, now) && (
                <Notice tone="warning" variant="inline" announce={false} data-testid="door-still-valid">
                  {t('validUntilEnd', { lock, end })}
                </Notice>
              )}
              {door.rewindow && (
                <Notice tone="info" variant="inline" announce={false} data-testid="door-rewindow">
                  {t('rewindowPending', { lock })}
                </Notice>
              )}
              {!door.rewindow && door.rewindowError !== null && (
                <Notice tone="error" variant="inline" announce={false} data-testid="door-rewindow-failed">
                  {t('rewindowFailed', { lock })} <DoorErrorText code={door.rewindowError} zone={zone} />
                </Notice>
              )}
              {door.state === 'remove_failed' && (
                <Notice tone="error" variant="inline" announce={false} data-testid="door-remove-failed">
                  {t('removeFailed', { lock })}
                </Notice>
              )}
              {door.error !== null && (
                <p className={styles.error} data-testid="door-error">
                  <DoorErrorText code={door.error} zone={zone} />
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
