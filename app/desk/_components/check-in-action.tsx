import { CheckInButton } from '@/app/desk/_components/check-in';
import type { CheckInWindow } from '@/lib/stays/check-in-windows';
import { formatDateTime, type Locale, type Translate } from '@/lib/i18n/locale';

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
  t,
  locale,
}: {
  reservationId: string;
  describedBy?: string;
  window: CheckInWindow | undefined;
  now?: Date;
  timeZone: string;
  t: Translate;
  locale: Locale;
}) {
  if (!window) return null;
  if (window.opensAt <= now) return <CheckInButton reservationId={reservationId} describedBy={describedBy} />;
  const opensId = `opens-${reservationId}`;
  const opens = (
    <span id={opensId} className="muted small" data-testid="check-in-opens">
      {t(window.roomFree ? 'checkIn.opensAt' : 'checkIn.opensAtOccupied', {
        time: formatDateTime(locale, window.opensAt, timeZone),
      })}
    </span>
  );
  return window.roomFree ? (
    <span className="check-in-slot">
      <CheckInButton
        reservationId={reservationId}
        describedBy={describedBy ? `${describedBy} ${opensId}` : opensId}
        early
      />
      {opens}
    </span>
  ) : (
    opens
  );
}
