'use client';

import { ErrorPanel } from '@/components/error-panel';

/** The booking site failed to render: words for a guest, a retry, no staff navigation. */
export default function BookingSiteError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" tabIndex={-1} className="page page--narrow">
      <ErrorPanel error={error} reset={reset} audience="guest" />
    </main>
  );
}
