'use client';

import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import type { AuditUrlFilters } from '@/lib/audit/audit-filters';
import { AuditEventsSkeleton, AuditEventsTable } from './audit-events-table';
import { AuditFiltersForm } from './audit-filters-form';
import styles from './audit-log.module.css';
import { useAuditLog, type AuditPage } from './use-audit-log';

type Props = {
  initialFilters: AuditUrlFilters;
  /** The first page for `initialFilters`, read by the server. */
  initialPage: AuditPage;
  rooms: { id: string; label: string }[];
  /** The facility's IANA zone: date filters are its days, times are shown in it. */
  timeZone: string;
  pageSize: number;
};

/**
 * The audit log: filters kept in the URL, newest events first, more loaded as the end of the list
 * scrolls into view (or with "Load more"), and a CSV export of exactly the filtered events.
 */
export function AuditLog({ initialFilters, initialPage, rooms, timeZone, pageSize }: Props) {
  const t = useTranslations('audit');
  const id = useId();
  const log = useAuditLog({ initialFilters, initialPage, timeZone, pageSize });
  const { events, sentinel } = log;
  const { isPending, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    log.query;
  const shown = events.length === 1 ? t('shownOne') : t('shown', { count: events.length });

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
        timeZone={timeZone}
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
          {isPending ? t('loading') : isError && events.length === 0 ? '' : shown}
        </p>

        {isPending ? (
          <AuditEventsSkeleton />
        ) : isError && events.length === 0 ? (
          <Notice as="div" tone="warning" className={styles.error} data-testid="audit-error">
            <p>{t('error')}</p>
            <Button onClick={() => void refetch()}>{t('retry')}</Button>
          </Notice>
        ) : events.length === 0 ? (
          <p className="empty-state" data-testid="audit-empty">
            {t('empty')}
          </p>
        ) : (
          <AuditEventsTable events={events} timeZone={timeZone} />
        )}

        {events.length > 0 && (
          <div className={styles.more}>
            <div ref={sentinel} aria-hidden="true" />
            {isFetchNextPageError ? (
              <Notice as="div" tone="error" variant="inline">
                {t('loadMoreError')}{' '}
                <Button size="compact" onClick={() => void fetchNextPage()}>
                  {t('retry')}
                </Button>
              </Notice>
            ) : hasNextPage ? (
              <Button data-testid="audit-load-more" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                {isFetchingNextPage ? t('loadingMore') : t('loadMore')}
              </Button>
            ) : (
              <p className="muted small" data-testid="audit-end">
                {t('end')}
              </p>
            )}
          </div>
        )}
      </section>
    </>
  );
}
