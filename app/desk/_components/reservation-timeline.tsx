import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { When } from '@/components/time';
import { isAuditAction, isAuditReasonCode } from '@/lib/audit/audit-filters';
import type { AuditEventView } from '@/lib/audit/list-audit-events';

const ACTOR_TYPES = ['user', 'api_key', 'guest', 'system', 'provider'] as const;

type Props = {
  reservationId: string;
  events: AuditEventView[];
  /** The facility's IANA zone: every time is shown in it. */
  timeZone: string;
  /** Whether to link to the full audit log (managers). */
  linkToAuditLog: boolean;
};

/** A reservation's history from the audit log, oldest first: when, who, what and why. */
export function ReservationTimeline({ reservationId, events, timeZone, linkToAuditLog }: Props) {
  const t = useTranslations();
  return (
    <section className="section" aria-labelledby="timeline-title" data-testid="reservation-timeline">
      <h2 id="timeline-title">{t('reservation.timeline.title')}</h2>
      <p className="muted">{t('reservation.timeline.lead')}</p>
      {events.length === 0 ? (
        <p className="empty-state">{t('reservation.timeline.empty')}</p>
      ) : (
        <ol className="timeline">
          {events.map((event) => {
            const actorType = (ACTOR_TYPES as readonly string[]).includes(event.actor.type)
              ? t(`audit.actorType.${event.actor.type as (typeof ACTOR_TYPES)[number]}`)
              : event.actor.type;
            return (
              <li key={event.id} className="timeline__event" data-testid="timeline-event" data-action={event.action}>
                <div className="timeline__head">
                  <span className="timeline__what">
                    {isAuditAction(event.action) ? t(`audit.action.${event.action}`) : event.action}
                  </span>
                  <code className="audit-code">{event.action}</code>
                </div>
                <p className="timeline__meta">
                  <When at={event.occurredAt} zone={timeZone} />
                  {' · '}
                  <span className="wrap-anywhere">{event.actor.label}</span> ({actorType})
                </p>
                {event.reason !== null && (
                  <p className="timeline__meta wrap-anywhere">
                    {t('audit.col.why')}:{' '}
                    {isAuditReasonCode(event.reason) ? t(`audit.reason.${event.reason}`) : event.reason}
                    {isAuditReasonCode(event.reason) && <code className="audit-code">{event.reason}</code>}
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
