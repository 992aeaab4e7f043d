'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { QueryProvider } from '@/components/query-provider';
import type { DeskSyncState } from '@/lib/bookings/desk-sync-state';

/** How often a screen asks while a key waits for its lock, and otherwise. */
export const POLL_PENDING_MS = 2_000;
export const POLL_IDLE_MS = 30_000;

type Props = {
  /** The reservations the screen shows. */
  reservationIds: string[];
  /** Their state as the server rendered them. */
  initial: DeskSyncState;
};

async function fetchState(ids: string[], signal: AbortSignal): Promise<DeskSyncState> {
  const response = await fetch(`/desk/live?ids=${ids.join(',')}`, {
    signal,
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`live answered ${response.status}`);
  return ((await response.json()) as { data: DeskSyncState }).data;
}

function Poller({ reservationIds, initial }: Props) {
  const router = useRouter();
  const query = useQuery({
    queryKey: ['desk-live', reservationIds.join(',')],
    queryFn: ({ signal }) => fetchState(reservationIds, signal),
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
 * (TanStack Query) and refreshes the page when a key, a door or a stay changes — so a key never
 * stays on "Activating…" after its lock confirmed.
 */
export function LiveRefresh(props: Props) {
  if (props.reservationIds.length === 0) return null;
  return (
    <QueryProvider>
      <Poller {...props} />
    </QueryProvider>
  );
}
