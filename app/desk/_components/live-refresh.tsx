'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { QueryProvider } from '@/components/query-provider';
import type { DeskSyncState } from '@/lib/desk/desk-sync-state';

/** How often a screen asks while a key waits for its lock, and otherwise. */
export const POLL_PENDING_MS = 2_000;
export const POLL_IDLE_MS = 30_000;

/** What the screen shows besides its stays: the desk's day, or a range of time (ISO instants). */
export type LiveWatch = { day: true } | { from: string; to: string };

type Props = {
  /** The reservations the screen shows. */
  reservationIds: string[];
  /** The stretch of time it shows, so a new booking there refreshes it too. */
  watch?: LiveWatch;
  /** Their state as the server rendered them. */
  initial: DeskSyncState;
};

function liveUrl(ids: string[], watch: LiveWatch | undefined): string {
  const query = new URLSearchParams({ ids: ids.join(',') });
  if (watch && 'day' in watch) query.set('watch', 'day');
  else if (watch) {
    query.set('from', watch.from);
    query.set('to', watch.to);
  }
  return `/desk/live?${query}`;
}

async function fetchState(url: string, signal: AbortSignal): Promise<DeskSyncState> {
  const response = await fetch(url, {
    signal,
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`live answered ${response.status}`);
  return ((await response.json()) as { data: DeskSyncState }).data;
}

function Poller({ reservationIds, watch, initial }: Props) {
  const router = useRouter();
  const url = liveUrl(reservationIds, watch);
  const query = useQuery({
    queryKey: ['desk-live', url],
    queryFn: ({ signal }) => fetchState(url, signal),
    // Every 2 s while a key is activating or a guest message is on its way, every 30 s otherwise, and
    // whenever the tab comes back.
    refetchInterval: (q) => {
      const state = q.state.data ?? initial;
      return state.pending > 0 || state.messagesOnTheWay > 0 ? POLL_PENDING_MS : POLL_IDLE_MS;
    },
    refetchOnWindowFocus: 'always',
    retry: 1,
  });
  const fingerprint = query.data?.fingerprint;
  // Something changed: the server renders the page again; this component then gets the new `initial`.
  useEffect(() => {
    if (fingerprint !== undefined && fingerprint !== initial.fingerprint) router.refresh();
  }, [fingerprint, initial.fingerprint, router]);
  return null;
}

/**
 * Keeps a server-rendered desk screen true while it is open: polls its reservations' sync state
 * (TanStack Query) and refreshes the page when a key, a door or a stay changes, or a stay is booked
 * into what it shows (`watch`) — so a key never stays on "Activating…" after its lock confirmed, and
 * a booking made elsewhere appears on an open desk.
 */
export function LiveRefresh(props: Props) {
  if (props.reservationIds.length === 0 && !props.watch) return null;
  return (
    <QueryProvider>
      <Poller {...props} />
    </QueryProvider>
  );
}
