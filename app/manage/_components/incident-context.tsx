import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { LockLink, RoomLabel, StayName, WebhookEventLink } from '@/components/record-name';
import type { IncidentContext } from '@/lib/incidents/list-incidents';
import { recordHref } from '@/lib/records/record-names';
import styles from './incident-context.module.css';

/**
 * What an incident is about, each linked to where a manager acts: the stays it affects ("Room 102 ·
 * Kenji Sato", at the desk), the lock, the room, the provider's event in the webhook log, and for a
 * booking no source maps, its event type and the booking sources page where the mapping is added.
 */
export function IncidentContextList({ context }: { context: IncidentContext }) {
  const t = useTranslations('records');
  const { stays, moreStays, lock, room, webhookEvent, eventType } = context;
  if (stays.length === 0 && !lock && !room && !webhookEvent && eventType === null) return null;
  return (
    <ul className={styles.list} data-testid="incident-context">
      {stays.length > 0 && (
        <li>
          {t('affects')}{' '}
          {stays.map((stay, i) => (
            <span key={stay.reservationId}>
              {i > 0 && ', '}
              <StayName stay={stay} testId="incident-stay" />
            </span>
          ))}
          {moreStays > 0 && ` ${t('moreStays', { count: moreStays })}`}
        </li>
      )}
      {lock && (
        <li>
          <LockLink lock={lock} link />
        </li>
      )}
      {room && !lock && stays.length === 0 && (
        <li>
          <RoomLabel room={room} />
        </li>
      )}
      {eventType !== null && (
        <li>
          {t('eventType')} <code className="mono wrap-anywhere">{eventType}</code> ·{' '}
          <Link href={recordHref.bookingSources()} data-testid="incident-booking-sources">
            {t('mapEventType')}
          </Link>
        </li>
      )}
      {webhookEvent && (
        <li>
          <WebhookEventLink event={webhookEvent} link />
        </li>
      )}
    </ul>
  );
}
