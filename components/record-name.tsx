import { useTranslations } from 'next-intl';
import Link from 'next/link';
import {
  recordHref,
  type LockName,
  type ReservationName,
  type RoomName,
  type WebhookEventName,
} from '@/lib/records/record-names';

// Records named the one way everywhere (audit log, incidents, timeline, overview): "Room 102 · Kenji
// Sato", linked to where a person acts on them. Server and Client Components alike (the words come
// from the "records" namespace, which a client section must pass down with ClientMessages).

/** The stay's room and guest ("Room 102 · Kenji Sato"), a deleted guest as "Deleted account"; linked to its reservation. */
export function StayName({
  stay,
  link = true,
  testId = 'record-stay',
}: {
  stay: ReservationName;
  link?: boolean;
  testId?: string;
}) {
  const t = useTranslations('records');
  const guest = stay.guestName ?? t('deletedAccount');
  const text = t('stay', { room: stay.roomLabel, guest });
  if (!link)
    return (
      <span data-testid={testId} data-deleted={stay.guestName === null || undefined}>
        {text}
      </span>
    );
  return (
    <Link
      href={recordHref.reservation(stay.reservationId)}
      data-testid={testId}
      data-deleted={stay.guestName === null || undefined}
      className="wrap-anywhere"
    >
      {text}
    </Link>
  );
}

/** A lock, linked to its card on the locks page when the reader may open it. */
export function LockLink({ lock, link }: { lock: LockName; link: boolean }) {
  const t = useTranslations('records');
  const text = t('lock', { name: lock.name });
  return link ? (
    <Link href={recordHref.lock(lock.id)} data-testid="record-lock" className="wrap-anywhere">
      {text}
    </Link>
  ) : (
    <span className="wrap-anywhere">{text}</span>
  );
}

/** A provider's webhook event, linked to it in the webhook log when the reader may open it. */
export function WebhookEventLink({ event, link }: { event: WebhookEventName; link: boolean }) {
  const t = useTranslations('records');
  const text = t('webhookEvent', { type: event.type });
  return link ? (
    <Link href={recordHref.webhookEvent(event.id)} data-testid="record-webhook-event" className="wrap-anywhere">
      {text}
    </Link>
  ) : (
    <span className="wrap-anywhere">{text}</span>
  );
}

/** A room by its label ("Room 102"). */
export function RoomLabel({ room }: { room: RoomName }) {
  const t = useTranslations('records');
  return <span data-testid="record-room">{t('room', { room: room.label })}</span>;
}
