'use client';

import { usePathname } from 'next/navigation';

/** A form's `returnTo`: the page's own path, which only the browser knows (layouts do not see it). */
export function ReturnToInput() {
  const pathname = usePathname();
  return <input type="hidden" name="returnTo" value={pathname || '/'} />;
}
