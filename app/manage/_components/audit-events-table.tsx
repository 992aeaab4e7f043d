'use client';

import Link from 'next/link';
import type { ReactNode } from 'react';
import { Table } from '@/components/ui/table';
import type { AuditEventView } from '@/lib/audit/list-audit-events';
import type { AuditLogLabels } from './audit-log';
import styles from './audit-log.module.css';
import { UUID } from './use-audit-log';

const SKELETON_ROWS = 6;

function AuditTable({
  labels,
  busy = false,
  children,
}: {
  labels: AuditLogLabels;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <Table region={{ label: labels.filtersTitle }} data-testid="audit-table" aria-busy={busy || undefined}>
      <thead>
        <tr>
          <th scope="col">{labels.when}</th>
          <th scope="col">{labels.who}</th>
          <th scope="col">{labels.what}</th>
          <th scope="col">{labels.why}</th>
          <th scope="col">{labels.subject}</th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </Table>
  );
}

/** The table's shape while the first page loads, hidden from assistive technology (the count says "Loading…"). */
export function AuditEventsSkeleton({ labels }: { labels: AuditLogLabels }) {
  return (
    <AuditTable labels={labels} busy>
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
export function AuditEventsTable({
  events,
  labels,
  format,
}: {
  events: AuditEventView[];
  labels: AuditLogLabels;
  format: (iso: string) => string;
}) {
  return (
    <AuditTable labels={labels}>
      {events.map((event) => (
        <AuditRow key={event.id} event={event} labels={labels} format={format} />
      ))}
    </AuditTable>
  );
}

function AuditRow({
  event,
  labels,
  format,
}: {
  event: AuditEventView;
  labels: AuditLogLabels;
  format: (iso: string) => string;
}) {
  const reasonLabel = event.reason !== null ? labels.reasons[event.reason] : undefined;
  return (
    <tr data-testid="audit-row" data-action={event.action} data-event-id={event.id}>
      <td className={styles.when}>
        {/* Server and browser may format with different ICU data; the ISO value is the truth. */}
        <time dateTime={event.occurredAt} suppressHydrationWarning>
          {format(event.occurredAt)}
        </time>
      </td>
      <td>
        <span className="wrap-anywhere">{event.actor.label}</span>
        <span className="facts__sub">{labels.actorTypes[event.actor.type] ?? event.actor.type}</span>
      </td>
      <td>
        {labels.actions[event.action] ?? event.action}
        <code className="audit-code" data-testid="audit-action">
          {event.action}
        </code>
      </td>
      <td className="wrap-anywhere">
        {event.reason === null ? (
          <span className="muted">{labels.noReason}</span>
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
        <AuditSubject event={event} labels={labels} />
      </td>
    </tr>
  );
}

/** Where a row leads: a reservation (or a key's reservation) opens at the desk; other subjects are shown, not linked. */
function AuditSubject({ event, labels }: { event: AuditEventView; labels: AuditLogLabels }) {
  const { type, id } = event.subject;
  const typeLabel = labels.subjectTypes[type] ?? type;
  const shortId = id ? <code className="audit-code">{id.slice(0, 8)}</code> : null;
  const keyReservation =
    typeof event.metadata.reservationId === 'string' && UUID.test(event.metadata.reservationId)
      ? event.metadata.reservationId
      : null;
  const reservationId = type === 'reservation' && id ? id : type === 'access_key' ? keyReservation : null;
  if (reservationId) {
    return (
      <>
        <span>
          {typeLabel} {shortId}
        </span>
        <Link href={`/desk/reservations/${reservationId}`} className="facts__sub" data-testid="audit-subject-link">
          {labels.openReservation}
        </Link>
      </>
    );
  }
  return (
    <span className="muted">
      {typeLabel} {shortId}
    </span>
  );
}
