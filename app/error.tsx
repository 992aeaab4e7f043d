'use client';

import { ErrorPanel } from '@/components/error-panel';

/** A page that failed to render, outside the desk, management and guest sections (each has its own). */
export default function RootError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" tabIndex={-1} className="page page--narrow">
      <ErrorPanel error={error} reset={reset} />
    </main>
  );
}
