'use client';

import { useFormatter, useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import { Table } from '@/components/ui/table';
import { isAuditAction, isAuditReasonCode } from '@/lib/audit/audit-filters';
import type { ReadableAuditEvent } from '@/lib/audit/readable-audit-events';
import { formats } from '@/lib/i18n/formats';
import { LockLink, RoomLabel, StayName, WebhookEventLink } from '@/components/record-name';
import styles from './audit-log.module.css';

const SKELETON_ROWS = 6;

/** Actor and subject types the log names in words; any other is shown as stored. */
const ACTOR_TYPES = ['user', 'api_key', 'guest', 'system', 'provider'] as const;
const SUBJECT_TYPES = ['access_key', 'reservation'] as const;

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

function AuditTable({ busy = false, children }: { busy?: boolean; children: ReactNode }) {
  const t = useTranslations('audit');
  return (
    <Table region={{ label: t('filters.title') }} data-testid="audit-table" aria-busy={busy || undefined}>
      <thead>
        <tr>
          <th scope="col">{t('col.when')}</th>
          <th scope="col">{t('col.who')}</th>
          <th scope="col">{t('col.what')}</th>
          <th scope="col">{t('col.why')}</th>
          <th scope="col">{t('col.subject')}</th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </Table>
  );
}

/** The table's shape while the first page loads, hidden from assistive technology (the count says "Loading…"). */
export function AuditEventsSkeleton() {
  return (
    <AuditTable busy>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <tr key={i} className={styles.skeleton} aria-hidden="true" data-testid="audit-skeleton">
          {Array.from({ length: 5 }, (_, j) => (
            <td key={j}>
              <span className={styles.skeletonLine} />
            </td>
          ))}
        </tr>
      ))}
    </AuditTable>
  );
}

/** Audit events, one row each: when, who, what, why and what it was about. */
export function AuditEventsTable({ events, timeZone }: { events: ReadableAuditEvent[]; timeZone: string }) {
  return (
    <AuditTable>
      {events.map((event) => (
        <AuditRow key={event.id} event={event} timeZone={timeZone} />
      ))}
    </AuditTable>
  );
}

function AuditRow({ event, timeZone }: { event: ReadableAuditEvent; timeZone: string }) {
  const t = useTranslations('audit');
  const format = useFormatter();
  const { actor, action, reason } = event;
  const reasonLabel = reason !== null && isAuditReasonCode(reason) ? t(`reason.${reason}`) : undefined;
  return (
    <tr data-testid="audit-row" data-action={event.action} data-event-id={event.id}>
      <td className={styles.when}>
        {/* Server and browser may format with different ICU data; the ISO value is the truth. */}
        <time dateTime={event.occurredAt} suppressHydrationWarning>
          {format.dateTime(new Date(event.occurredAt), { ...formats.dateTime.stamp, timeZone })}
        </time>
      </td>
      <td>
        <span className="wrap-anywhere">{actor.label}</span>
        <span className="facts__sub">
          {isOneOf(ACTOR_TYPES, actor.type) ? t(`actorType.${actor.type}`) : actor.type}
        </span>
      </td>
      <td>
        {isAuditAction(action) ? t(`action.${action}`) : action}
        <code className="audit-code" data-testid="audit-action">
          {event.action}
        </code>
      </td>
      <td className="wrap-anywhere">
        {event.reason === null ? (
          <span className="muted">{t('noReason')}</span>
        ) : reasonLabel ? (
          <>
            {reasonLabel}
            <code className="audit-code" data-testid="audit-reason">
              {event.reason}
            </code>
          </>
        ) : (
          <span data-testid="audit-reason">{event.reason}</span>
        )}
      </td>
      <td>
        <AuditSubject event={event} />
      </td>
    </tr>
  );
}

/**
 * What a row is about, named for a person: the stay ("Room 102 · Kenji Sato", opening the
 * reservation at the desk), the door's lock, the room, and the provider's event that made the change.
 * The subject's type and short id stay beside them for anyone matching rows by id.
 */
function AuditSubject({ event }: { event: ReadableAuditEvent }) {
  const t = useTranslations('audit');
  const { type, id } = event.subject;
  const { reservation, lock, room, webhookEvent } = event.context;
  const typeLabel = isOneOf(SUBJECT_TYPES, type) ? t(`subject.${type}`) : type;
  return (
    <>
      {reservation ? (
        <StayName stay={reservation} testId="audit-subject-link" />
      ) : room ? (
        <RoomLabel room={room} />
      ) : null}
      {lock && (
        <span className="facts__sub">
          <LockLink lock={lock} link />
        </span>
      )}
      {webhookEvent && (
        <span className="facts__sub">
          <WebhookEventLink event={webhookEvent} link />
        </span>
      )}
      <span className="facts__sub muted">
        {typeLabel} {id ? <code className="audit-code">{id.slice(0, 8)}</code> : null}
      </span>
    </>
  );
}
