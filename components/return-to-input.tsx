'use client';

import { usePathname, useSearchParams } from 'next/navigation';

/** A form's `returnTo`: the page's own path, which only the browser knows (layouts do not see it). */
export function ReturnToInput() {
  const pathname = usePathname();
  return <input type="hidden" name="returnTo" value={pathname || '/'} />;
}

/**
 * A `returnTo` with the page's query too, for a page whose state is in its URL (the booking site's
 * steps). Only on dynamic pages: reading the query makes a static page render on the client.
 */
export function ReturnHereInput() {
  const pathname = usePathname();
  const query = useSearchParams().toString();
  return <input type="hidden" name="returnTo" value={`${pathname || '/'}${query ? `?${query}` : ''}`} />;
}
