'use client';

import { ErrorPanel } from '@/components/error-panel';

/** The guest's key page failed to render: words for a guest (ask the front desk), no staff navigation. */
export default function GuestKeyError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" tabIndex={-1} className="page page--narrow">
      <ErrorPanel error={error} reset={reset} audience="guest" />
    </main>
  );
}
