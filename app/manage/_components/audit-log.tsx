'use client';

import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  AUDIT_ACTIONS,
  auditApiSearch,
  auditUrlSearch,
  EMPTY_AUDIT_FILTERS,
  isAuditAction,
  type AuditUrlFilters,
} from '@/lib/audit/audit-filters';
import type { AuditEventView } from '@/lib/audit/list-audit-events';
import { formatDateTime, type Locale } from '@/lib/i18n/locale';

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

type AuditPage = { data: AuditEventView[]; nextCursor: string | null };

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPING_DELAY_MS = 350;
const SKELETON_ROWS = 6;

class AuditFetchError extends Error {
  constructor(readonly status: number) {
    super(`audit events request failed with ${status}`);
    this.name = 'AuditFetchError';
  }
}

function isAuditPage(value: unknown): value is AuditPage {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return Array.isArray(v.data) && (v.nextCursor === null || typeof v.nextCursor === 'string');
}

async function fetchAuditPage(
  search: string,
  cursor: string | null,
  pageSize: number,
  signal: AbortSignal,
): Promise<AuditPage> {
  const params = new URLSearchParams(search);
  params.set('limit', String(pageSize));
  if (cursor) params.set('cursor', cursor);
  const response = await fetch(`/manage/audit/events?${params.toString()}`, {
    cache: 'no-store',
    headers: { accept: 'application/json' },
    signal,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || !isAuditPage(body)) throw new AuditFetchError(response.status);
  return body;
}

/** Text filters wait for a pause in typing; a subject id counts only once it is a whole UUID. */
function effective(filters: AuditUrlFilters): AuditUrlFilters {
  const subjectId = filters.subjectId.trim().toLowerCase();
  return { ...filters, actor: filters.actor.trim(), subjectId: UUID.test(subjectId) ? subjectId : '' };
}

/**
 * The audit log: filters kept in the URL, newest events first, more loaded as the end of the list
 * scrolls into view (or with "Load more"), and a CSV export of exactly the filtered events.
 */
export function AuditLog({ initialFilters, initialPage, rooms, timeZone, locale, pageSize, labels }: Props) {
  const id = useId();
  const [form, setForm] = useState<AuditUrlFilters>(initialFilters);
  const [applied, setApplied] = useState<AuditUrlFilters>(initialFilters);
  const [initialSearch] = useState(() => auditApiSearch(initialFilters, timeZone));

  const search = useMemo(() => auditApiSearch(applied, timeZone), [applied, timeZone]);

  // Typing in a text field applies after a pause; selects and dates apply at once (see `update`).
  useEffect(() => {
    const next = effective(form);
    if (next.actor === applied.actor && next.subjectId === applied.subjectId) return;
    const timer = setTimeout(
      () => setApplied((current) => ({ ...current, actor: next.actor, subjectId: next.subjectId })),
      TYPING_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [form, applied.actor, applied.subjectId]);

  // The URL mirrors the applied filters, so a reload or a shared link shows the same list. The
  // history API (which Next.js's router follows) avoids re-rendering the server page for each change.
  useEffect(() => {
    const query = auditUrlSearch(applied);
    const url = `${window.location.pathname}${query ? `?${query}` : ''}`;
    if (url !== `${window.location.pathname}${window.location.search}`)
      window.history.replaceState(window.history.state, '', url);
  }, [applied]);

  const query = useInfiniteQuery({
    queryKey: ['audit-events', search, pageSize],
    queryFn: ({ pageParam, signal }) => fetchAuditPage(search, pageParam, pageSize, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    initialData:
      search === initialSearch
        ? ({ pages: [initialPage], pageParams: [null] } satisfies InfiniteData<AuditPage, string | null>)
        : undefined,
    staleTime: 60_000,
    // Refetching every loaded page on focus would be costly and make the list jump.
    refetchOnWindowFocus: false,
    retry: (failureCount, error) =>
      !(error instanceof AuditFetchError && error.status >= 400 && error.status < 500) && failureCount < 2,
  });
  const { data, isPending, isError, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    query;
  const events = useMemo(() => data?.pages.flatMap((page) => page.data) ?? [], [data]);

  // Infinite scroll: load the next page when the end of the list comes near the viewport.
  const sentinel = useRef<HTMLDivElement>(null);
  const canAutoLoad = !!hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !canAutoLoad || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [canAutoLoad, fetchNextPage, events.length]);

  const update = (name: keyof AuditUrlFilters, value: string, immediate: boolean) => {
    const next = { ...form, [name]: value } as AuditUrlFilters;
    setForm(next);
    if (immediate) setApplied((current) => ({ ...current, [name]: value }));
  };
  const reset = () => {
    setForm(EMPTY_AUDIT_FILTERS);
    setApplied(EMPTY_AUDIT_FILTERS);
  };

  const subjectIdInvalid = form.subjectId.trim() !== '' && !UUID.test(form.subjectId.trim());
  const isFiltered = auditUrlSearch(form) !== '';
  const format = (iso: string) => formatDateTime(locale, new Date(iso), timeZone);
  const shown = events.length === 1 ? labels.shownOne : labels.shown.replace('{count}', String(events.length));

  return (
    <>
      <section className="section" aria-labelledby={`${id}-filters`}>
        <h2 id={`${id}-filters`} className="visually-hidden">
          {labels.filtersTitle}
        </h2>
        <form
          role="search"
          aria-labelledby={`${id}-filters`}
          className="audit-filters"
          data-testid="audit-filters"
          onSubmit={(e) => e.preventDefault()}
        >
          <div className="field">
            <label htmlFor={`${id}-action`} className="field__label">
              {labels.action}
            </label>
            <select
              id={`${id}-action`}
              name="action"
              className="select"
              value={form.action}
              onChange={(e) => update('action', isAuditAction(e.target.value) ? e.target.value : '', true)}
            >
              <option value="">{labels.anyAction}</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {labels.actions[action] ?? action} ({action})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-actor`} className="field__label">
              {labels.actor}
            </label>
            <input
              id={`${id}-actor`}
              name="actor"
              type="search"
              className="input"
              autoComplete="off"
              maxLength={200}
              value={form.actor}
              onChange={(e) => update('actor', e.target.value, false)}
              aria-describedby={`${id}-actor-hint`}
            />
            <p id={`${id}-actor-hint`} className="field__hint">
              {labels.actorHint}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-subject`} className="field__label">
              {labels.subjectId}
            </label>
            <input
              id={`${id}-subject`}
              name="subjectId"
              type="search"
              className="input mono"
              autoComplete="off"
              spellCheck={false}
              maxLength={36}
              value={form.subjectId}
              onChange={(e) => update('subjectId', e.target.value, false)}
              aria-invalid={subjectIdInvalid || undefined}
              aria-describedby={`${id}-subject-hint`}
            />
            <p id={`${id}-subject-hint`} className="field__hint">
              {subjectIdInvalid ? labels.subjectIdInvalid : labels.subjectIdHint}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-room`} className="field__label">
              {labels.room}
            </label>
            <select
              id={`${id}-room`}
              name="roomId"
              className="select"
              value={form.roomId}
              onChange={(e) => update('roomId', e.target.value, true)}
            >
              <option value="">{labels.anyRoom}</option>
              {rooms.map((room) => (
                <option key={room.id} value={room.id}>
                  {room.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-from`} className="field__label">
              {labels.from}
            </label>
            <input
              id={`${id}-from`}
              name="from"
              type="date"
              className="input"
              value={form.from}
              max={form.to || undefined}
              onChange={(e) => update('from', e.target.value, true)}
              aria-describedby={`${id}-dates-hint`}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-to`} className="field__label">
              {labels.to}
            </label>
            <input
              id={`${id}-to`}
              name="to"
              type="date"
              className="input"
              value={form.to}
              min={form.from || undefined}
              onChange={(e) => update('to', e.target.value, true)}
              aria-describedby={`${id}-dates-hint`}
            />
          </div>
          <p id={`${id}-dates-hint`} className="field__hint audit-filters__note">
            {labels.datesHint}
          </p>
          <div className="audit-filters__actions">
            <button type="button" className="button button--ghost" onClick={reset} disabled={!isFiltered}>
              {labels.reset}
            </button>
            <a
              href={`/manage/audit/export${search ? `?${search}` : ''}`}
              className="button button--secondary"
              data-testid="audit-export"
              download
              aria-describedby={`${id}-export-hint`}
            >
              {labels.exportCsv}
            </a>
            <span id={`${id}-export-hint`} className="visually-hidden">
              {labels.exportHint}
            </span>
          </div>
        </form>
      </section>

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
          <AuditTable labels={labels} busy>
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <tr key={i} className="audit-skeleton" aria-hidden="true" data-testid="audit-skeleton">
                {Array.from({ length: 5 }, (_, j) => (
                  <td key={j}>
                    <span className="skeleton-line" />
                  </td>
                ))}
              </tr>
            ))}
          </AuditTable>
        ) : isError && events.length === 0 ? (
          <div role="alert" className="notice audit-error" data-testid="audit-error">
            <p>{labels.error}</p>
            <button type="button" className="button button--secondary" onClick={() => void refetch()}>
              {labels.retry}
            </button>
          </div>
        ) : events.length === 0 ? (
          <p className="empty-state" data-testid="audit-empty">
            {labels.empty}
          </p>
        ) : (
          <AuditTable labels={labels}>
            {events.map((event) => (
              <AuditRow key={event.id} event={event} labels={labels} format={format} />
            ))}
          </AuditTable>
        )}

        {events.length > 0 && (
          <div className="audit-more">
            <div ref={sentinel} aria-hidden="true" />
            {isFetchNextPageError ? (
              <div role="alert" className="inline-error">
                {labels.loadMoreError}{' '}
                <button
                  type="button"
                  className="button button--secondary button--compact"
                  onClick={() => void fetchNextPage()}
                >
                  {labels.retry}
                </button>
              </div>
            ) : hasNextPage ? (
              <button
                type="button"
                className="button button--secondary"
                data-testid="audit-load-more"
                onClick={() => void fetchNextPage()}
                disabled={isFetchingNextPage}
              >
                {isFetchingNextPage ? labels.loadingMore : labels.loadMore}
              </button>
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
    <div className="table-wrap" role="region" aria-label={labels.filtersTitle} tabIndex={0}>
      <table className="table audit-table" data-testid="audit-table" aria-busy={busy || undefined}>
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
      </table>
    </div>
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
      <td className="audit-table__when">
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
