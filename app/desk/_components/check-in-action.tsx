import { useFormatter, useTranslations } from 'next-intl';
import { CheckInButton } from '@/app/desk/_components/check-in';
import type { CheckInWindow } from '@/lib/stays/check-in-windows';
import type { CheckInLockProblem } from '@/lib/locks/check-in-lock-problems';

/**
 * The check-in action of one reservation, on the desk list and the reservation page: "Complete
 * check-in" once the check-in opens; before that, "Check in early" while the room is free (with when
 * it opens), or only when it opens if the room is occupied.
 */
export function CheckInAction({
  reservationId,
  describedBy,
  window,
  now = new Date(),
  timeZone,
  subject,
  lockProblems = [],
}: {
  reservationId: string;
  /** Why the new PIN may not reach the door: the button warns and asks to confirm. */
  lockProblems?: CheckInLockProblem[];
  describedBy?: string;
  /** Whose check-in it is ("Room 102 · Kenji Sato"), for the button's name in a list. */
  subject?: string;
  window: CheckInWindow | undefined;
  now?: Date;
  /** The facility's IANA zone, which "Check-in opens …" is written in. */
  timeZone: string;
}) {
  const t = useTranslations('checkIn');
  const words = useTranslations('lockProblem');
  const format = useFormatter();
  if (!window) return null;
  const warning =
    lockProblems.length === 0
      ? undefined
      : t('lockWarning', {
          problems: format.list(
            lockProblems.map(({ lockName, problem }) =>
              lockName ? `${words(`kind.${problem}`)} (${lockName})` : words(`kind.${problem}`),
            ),
          ),
        });
  if (window.opensAt <= now)
    return (
      <CheckInButton reservationId={reservationId} describedBy={describedBy} subject={subject} warning={warning} />
    );
  const opensId = `opens-${reservationId}`;
  const opens = (
    <span id={opensId} className="muted small" data-testid="check-in-opens">
      {t(window.roomFree ? 'opensAt' : 'opensAtOccupied', {
        time: format.dateTime(window.opensAt, 'stamp', { timeZone }),
      })}
    </span>
  );
  return window.roomFree ? (
    <span className="check-in-slot">
      <CheckInButton
        reservationId={reservationId}
        describedBy={describedBy ? `${describedBy} ${opensId}` : opensId}
        subject={subject}
        warning={warning}
        early
      />
      {opens}
    </span>
  ) : (
    opens
  );
}
