import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { When } from '@/components/time';
import { DoorErrorText, isKnownDoorError } from '@/app/desk/_components/door-error';
import { isAuditAction, isAuditReasonCode } from '@/lib/audit/audit-filters';
import type { AuditEventView } from '@/lib/audit/list-audit-events';
import type { EntryView } from '@/lib/desk/door-record';
import type { TimelineItem } from '@/lib/desk/reservation-page';
import { entryHow } from '@/app/desk/_components/door-entries';
import { LockLink, StayName, WebhookEventLink } from '@/components/record-name';

const ACTOR_TYPES = ['user', 'api_key', 'guest', 'system', 'provider'] as const;

/** Rows about one door of a key, whose metadata names the lock (`lockName`, a snapshot at the time). */
const DOOR_ACTIONS = [
  'key.door_set',
  'key.door_failed',
  'key.door_removed',
  'key.door_remove_failed',
  'key.door_valid_until_end',
  'key.backup_issued',
];

function lockNameOf(event: AuditEventView): string | null {
  const name = event.metadata.lockName;
  return DOOR_ACTIONS.includes(event.action) && typeof name === 'string' && name !== '' ? name : null;
}

type Props = {
  reservationId: string;
  /** Its audit rows and its door openings, oldest first (`timelineItems`). */
  items: TimelineItem[];
  /** What the guest wrote, by guest message id: shown under its `guest.message_sent` row (the audit row holds no words). */
  guestMessages?: Record<string, string | null>;
  /** The facility's IANA zone: every time is shown in it. */
  timeZone: string;
  /** Whether to link to the full audit log, the locks and the webhook log (managers). */
  linkToAuditLog: boolean;
};

/**
 * A reservation's history, oldest first: from the audit log when, who, what and why, the room and
 * guest it concerned (a moved stay's old key names its old room), the door and the provider's event;
 * and each opening of a door its locks reported — which door, and how (whose code, who opened it remotely).
 */
export function ReservationTimeline({ reservationId, items, guestMessages = {}, timeZone, linkToAuditLog }: Props) {
  const t = useTranslations();
  return (
    <section className="section" aria-labelledby="timeline-title" data-testid="reservation-timeline">
      <h2 id="timeline-title">{t('reservation.timeline.title')}</h2>
      <p className="muted">{t('reservation.timeline.lead')}</p>
      {items.length === 0 ? (
        <p className="empty-state">{t('reservation.timeline.empty')}</p>
      ) : (
        <ol className="timeline">
          {items.map((item) => {
            if (item.type === 'entry')
              return (
                <EntryEvent key={item.id} entry={item.entry} timeZone={timeZone} showReason={!item.followsRequest} />
              );
            const { event } = item;
            const actorType = (ACTOR_TYPES as readonly string[]).includes(event.actor.type)
              ? t(`audit.actorType.${event.actor.type as (typeof ACTOR_TYPES)[number]}`)
              : event.actor.type;
            const what = isAuditAction(event.action) ? t(`audit.action.${event.action}`) : event.action;
            const lock = lockNameOf(event);
            const messageId = event.metadata.guestMessageId;
            const wrote = typeof messageId === 'string' ? guestMessages[messageId] : null;
            return (
              <li key={event.id} className="timeline__event" data-testid="timeline-event" data-action={event.action}>
                <div className="timeline__head">
                  <span className="timeline__what wrap-anywhere">
                    {lock !== null ? t('reservation.timeline.onLock', { action: what, lock }) : what}
                  </span>
                  <code className="audit-code">{event.action}</code>
                </div>
                <p className="timeline__meta">
                  <When at={event.occurredAt} zone={timeZone} />
                  {' · '}
                  <span className="wrap-anywhere">{event.actor.label}</span> ({actorType})
                  {event.context.reservation && (
                    <>
                      {' · '}
                      <StayName stay={event.context.reservation} link={false} testId="timeline-stay" />
                    </>
                  )}
                </p>
                {/* Where a manager acts on it: the door's lock, the provider event that made the change. */}
                {linkToAuditLog && (event.context.lock || event.context.webhookEvent) && (
                  <p className="timeline__meta">
                    {event.context.lock && <LockLink lock={event.context.lock} link />}
                    {event.context.lock && event.context.webhookEvent && ' · '}
                    {event.context.webhookEvent && <WebhookEventLink event={event.context.webhookEvent} link />}
                  </p>
                )}
                {wrote && (
                  <p className="wrap-anywhere guest-message-body" data-testid="timeline-guest-message">
                    {wrote}
                  </p>
                )}
                {event.reason !== null && (
                  <p className="timeline__meta wrap-anywhere">
                    {t('audit.col.why')}:{' '}
                    {isAuditReasonCode(event.reason) ? (
                      t(`audit.reason.${event.reason}`)
                    ) : isKnownDoorError(event.reason) ? (
                      // A door's error (or, for a backup, the state its key's door was stuck in).
                      <DoorErrorText code={event.reason} at={event.occurredAt} zone={timeZone} />
                    ) : (
                      event.reason
                    )}
                    {(isAuditReasonCode(event.reason) || isKnownDoorError(event.reason)) && (
                      <code className="audit-code">{event.reason}</code>
                    )}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {linkToAuditLog && (
        <p>
          <Link href={`/manage/audit?subjectId=${reservationId}`}>{t('reservation.timeline.all')}</Link>
        </p>
      )}
    </section>
  );
}

/** One door opening in the timeline: "Door opened — Room 101 door", when, and how (whose code, or who remotely and why). */
function EntryEvent({ entry, timeZone, showReason }: { entry: EntryView; timeZone: string; showReason: boolean }) {
  const t = useTranslations();
  return (
    <li className="timeline__event" data-testid="timeline-event" data-action="door.entry" data-method={entry.method}>
      <div className="timeline__head">
        <span className="timeline__what wrap-anywhere">{t('doors.entries.timeline', { door: entry.lockName })}</span>
        <span className="muted small">{t('doors.entries.entry')}</span>
      </div>
      <p className="timeline__meta">
        <When at={entry.occurredAt} zone={timeZone} />
        {' · '}
        <span className="wrap-anywhere" data-testid="timeline-entry-how">
          {entryHow(entry, t)}
        </span>
      </p>
      {/* The reason is on the remote unlock's own row just above, when the history holds it. */}
      {showReason && entry.reason !== null && (
        <p className="timeline__meta wrap-anywhere">
          {t('audit.col.why')}: {entry.reason}
        </p>
      )}
    </li>
  );
}
