'use client';

import { Notice } from '@/components/ui/notice';
import { Badge } from '@/components/ui/badge';
import { useQuery } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useEffect, useId } from 'react';
import { WEBHOOK_STATUSES } from '@/lib/webhooks/webhook-log-filters';

type Progress = {
  counts: Record<(typeof WEBHOOK_STATUSES)[number], number>;
  total: number;
  settled: number;
  pending: number;
};

export const REPLAY_POLL_MS = 1500;

async function fetchProgress(
  query: { provider: string; from: string; to: string },
  signal: AbortSignal,
): Promise<Progress> {
  const response = await fetch(`/manage/webhooks/progress?${new URLSearchParams(query)}`, {
    signal,
    cache: 'no-store',
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`progress answered ${response.status}`);
  return ((await response.json()) as { data: Progress }).data;
}

/** A replayed window's progress: settled events over all, polled every 1.5 s until none is queued or retrying. */
export function ReplayProgress({
  provider,
  from,
  to,
  replayedAt,
}: {
  provider: string;
  from: string;
  to: string;
  replayedAt: string;
}) {
  const t = useTranslations('webhooks');
  const id = useId();
  const query = useQuery({
    queryKey: ['webhook-replay-progress', provider, from, to, replayedAt],
    queryFn: ({ signal }) => fetchProgress({ provider, from, to }, signal),
    refetchInterval: (q) => (q.state.data && q.state.data.pending === 0 ? false : REPLAY_POLL_MS),
    retry: 2,
  });
  const data = query.data;
  const text = data ? t('progress.count', { done: data.settled, total: data.total }) : t('progress.loading');
  const done = data !== undefined && data.pending === 0;
  const router = useRouter();
  // Once everything has settled, the log above shows the new outcomes without a manual reload.
  useEffect(() => {
    if (done) router.refresh();
  }, [done, router]);
  return (
    <div className="replay-progress" data-testid="webhook-replay-progress" data-complete={done ? 'true' : 'false'}>
      <p id={`${id}-label`} className="replay-progress__title">
        {t('progress.title')}
      </p>
      <progress
        className="replay-progress__bar"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-text`}
        max={data ? Math.max(data.total, 1) : undefined}
        value={data ? data.settled : undefined}
        aria-valuenow={data ? data.settled : undefined}
        aria-valuetext={data ? text : undefined}
        data-testid="webhook-replay-progress-bar"
      />
      <p id={`${id}-text`} role="status" className="replay-progress__text" data-testid="webhook-replay-progress-text">
        {text}
        {done ? ` — ${t('progress.complete')}` : ''}
      </p>
      {data && data.total > 0 && (
        <ul className="badge-row replay-progress__counts" aria-label={t('progress.title')}>
          {WEBHOOK_STATUSES.filter((status) => data.counts[status] > 0).map((status) => (
            <Badge as="li" key={status}>
              {t(`status.${status}`)}: {data.counts[status]}
            </Badge>
          ))}
        </ul>
      )}
      {query.isError && !data && (
        <Notice tone="error" variant="inline">
          {t('progress.error')}
        </Notice>
      )}
    </div>
  );
}
