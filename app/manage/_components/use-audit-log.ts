'use client';

import { useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { auditApiSearch, auditUrlSearch, EMPTY_AUDIT_FILTERS, type AuditUrlFilters } from '@/lib/audit/audit-filters';
import type { ReadableAuditEvent } from '@/lib/audit/readable-audit-events';

export type AuditPage = { data: ReadableAuditEvent[]; nextCursor: string | null };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPING_DELAY_MS = 350;

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

type Options = {
  initialFilters: AuditUrlFilters;
  /** The first page for `initialFilters`, read by the server. */
  initialPage: AuditPage;
  /** The facility's IANA zone: date filters are its days. */
  timeZone: string;
  pageSize: number;
};

/**
 * The audit log's state: the filters as typed (`form`) and as applied (debounced for text, mirrored
 * in the URL), and the events for the applied filters, newest first, a page at a time. `sentinel`
 * goes on an element at the end of the list: when it nears the viewport the next page loads.
 */
export function useAuditLog({ initialFilters, initialPage, timeZone, pageSize }: Options) {
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
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
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
    setForm({ ...form, [name]: value } as AuditUrlFilters);
    if (immediate) setApplied((current) => ({ ...current, [name]: value }));
  };
  const reset = () => {
    setForm(EMPTY_AUDIT_FILTERS);
    setApplied(EMPTY_AUDIT_FILTERS);
  };

  return {
    form,
    update,
    reset,
    /** The applied filters as the events endpoint's (and the CSV export's) query string. */
    search,
    subjectIdInvalid: form.subjectId.trim() !== '' && !UUID.test(form.subjectId.trim()),
    isFiltered: auditUrlSearch(form) !== '',
    events,
    query,
    sentinel,
  };
}
