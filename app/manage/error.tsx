'use client';

import { ErrorPanel } from '@/components/error-panel';

/** A management page that failed to render: the section's header and navigation stay. */
export default function ManageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel error={error} reset={reset} />;
}
