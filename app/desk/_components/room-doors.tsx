import { OpenDoor } from '@/app/desk/_components/open-door';
import { OnlineBadge, offlineReasonText } from '@/components/lock-health';
import { Badge } from '@/components/ui/badge';
import type { DoorView } from '@/lib/desk/room-doors';
import type { Translate } from '@/lib/i18n/locale';
import styles from './room-doors.module.css';

/** Below this the battery reads as a warning, as on the Locks page. */
const LOW_BATTERY = 20;

type Props = {
  doors: DoorView[];
  room: string;
  /** The facility's IANA zone: a remote unlock's time is written in it. */
  timeZone: string;
  /** Whether the person may open doors remotely (`doors.unlock`). */
  canOpen: boolean;
  t: Translate;
};

/**
 * A room's doors at the desk: each lock by name and role, whether it answers its provider, its battery, and
 * "Open door" where its provider opens doors on request (a lock that cannot says so instead of offering it).
 */
export function RoomDoors({ doors, room, timeZone, canOpen, t }: Props) {
  if (doors.length === 0) return <p className="empty-state">{t('doors.empty')}</p>;
  return (
    <>
      {canOpen && doors.some((door) => door.canUnlockRemotely) && <p className="muted small">{t('doors.lead')}</p>}
      <ul className={styles.list} data-testid="room-doors">
        {doors.map((door) => (
          <li key={door.lockId} className={styles.door} data-testid="room-door" data-lock-id={door.lockId}>
            <div className={styles.head}>
              <span className={styles.name}>{door.name}</span>
              <span className="muted small">{t(`locks.role.${door.role}`)}</span>
              <OnlineBadge online={door.online} t={t} />
              {door.batteryLevel !== null &&
                (door.batteryLevel < LOW_BATTERY ? (
                  <Badge tone="warning">{t('locks.battery.low', { level: door.batteryLevel })}</Badge>
                ) : (
                  <span className="muted small">{t('locks.battery.level', { level: door.batteryLevel })}</span>
                ))}
            </div>
            {door.online === false && door.offlineReason && (
              <p className="muted small">
                {t('locks.offlineBecause', { reason: offlineReasonText(door.offlineReason, t) })}
              </p>
            )}
            {canOpen &&
              (door.canUnlockRemotely ? (
                <OpenDoor lockId={door.lockId} door={door.name} room={room} timeZone={timeZone} />
              ) : (
                <p className="muted small" data-testid="cannot-open">
                  {t('doors.cannotOpen')}
                </p>
              ))}
          </li>
        ))}
      </ul>
    </>
  );
}
