'use client';

import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { AuditUrlFilters } from '@/lib/audit/audit-filters';
import { formatDateTime, type Locale } from '@/lib/i18n/locale';
import { AuditEventsSkeleton, AuditEventsTable } from './audit-events-table';
import { AuditFiltersForm } from './audit-filters-form';
import styles from './audit-log.module.css';
import { useAuditLog, type AuditPage } from './use-audit-log';

export type AuditLogLabels = {
  filtersTitle: string;
  action: string;
  anyAction: string;
  actor: string;
  actorHint: string;
  subjectId: string;
  subjectIdHint: string;
  subjectIdInvalid: string;
  room: string;
  anyRoom: string;
  from: string;
  to: string;
  datesHint: string;
  reset: string;
  exportCsv: string;
  exportHint: string;
  when: string;
  who: string;
  what: string;
  why: string;
  subject: string;
  loading: string;
  empty: string;
  error: string;
  retry: string;
  loadMore: string;
  loadingMore: string;
  loadMoreError: string;
  end: string;
  /** Contains `{count}`. */
  shown: string;
  shownOne: string;
  noReason: string;
  openReservation: string;
  subjectTypes: Record<string, string>;
  actorTypes: Record<string, string>;
  actions: Record<string, string>;
  reasons: Record<string, string>;
};

type Props = {
  initialFilters: AuditUrlFilters;
  /** The first page for `initialFilters`, read by the server. */
  initialPage: AuditPage;
  rooms: { id: string; label: string }[];
  /** The facility's IANA zone: date filters are its days, times are shown in it. */
  timeZone: string;
  locale: Locale;
  pageSize: number;
  labels: AuditLogLabels;
};

/**
 * The audit log: filters kept in the URL, newest events first, more loaded as the end of the list
 * scrolls into view (or with "Load more"), and a CSV export of exactly the filtered events.
 */
export function AuditLog({ initialFilters, initialPage, rooms, timeZone, locale, pageSize, labels }: Props) {
  const id = useId();
  const log = useAuditLog({ initialFilters, initialPage, timeZone, pageSize });
  const { events, sentinel } = log;
  const { isPending, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    log.query;
  const format = (iso: string) => formatDateTime(locale, new Date(iso), timeZone);
  const shown = events.length === 1 ? labels.shownOne : labels.shown.replace('{count}', String(events.length));

  return (
    <>
      <AuditFiltersForm
        id={id}
        form={log.form}
        update={log.update}
        reset={log.reset}
        search={log.search}
        subjectIdInvalid={log.subjectIdInvalid}
        isFiltered={log.isFiltered}
        rooms={rooms}
        labels={labels}
      />

      <section
        className="section"
        aria-labelledby={`${id}-results`}
        aria-busy={isPending || isFetchingNextPage || undefined}
      >
        <h2 id={`${id}-results`} className="visually-hidden">
          {shown}
        </h2>
        <p
          role="status"
          aria-live="polite"
          className="muted small"
          data-testid="audit-count"
          data-count={isPending ? undefined : events.length}
        >
          {isPending ? labels.loading : isError && events.length === 0 ? '' : shown}
        </p>

        {isPending ? (
          <AuditEventsSkeleton labels={labels} />
        ) : isError && events.length === 0 ? (
          <Notice as="div" tone="warning" className={styles.error} data-testid="audit-error">
            <p>{labels.error}</p>
            <Button onClick={() => void refetch()}>{labels.retry}</Button>
          </Notice>
        ) : events.length === 0 ? (
          <p className="empty-state" data-testid="audit-empty">
            {labels.empty}
          </p>
        ) : (
          <AuditEventsTable events={events} labels={labels} format={format} />
        )}

        {events.length > 0 && (
          <div className={styles.more}>
            <div ref={sentinel} aria-hidden="true" />
            {isFetchNextPageError ? (
              <Notice as="div" tone="error" variant="inline">
                {labels.loadMoreError}{' '}
                <Button size="compact" onClick={() => void fetchNextPage()}>
                  {labels.retry}
                </Button>
              </Notice>
            ) : hasNextPage ? (
              <Button data-testid="audit-load-more" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                {isFetchingNextPage ? labels.loadingMore : labels.loadMore}
              </Button>
            ) : (
              <p className="muted small" data-testid="audit-end">
                {labels.end}
              </p>
            )}
          </div>
        )}
      </section>
    </>
  );
}
