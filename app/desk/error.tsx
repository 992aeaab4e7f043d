'use client';

import { ErrorPanel } from '@/components/error-panel';

/** A desk page that failed to render: the desk's header and navigation stay, so staff can move on. */
export default function DeskError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return <ErrorPanel error={error} reset={reset} />;
}
