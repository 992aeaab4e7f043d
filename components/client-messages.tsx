import type { ReactNode } from 'react';
import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import type { Messages } from '@/lib/i18n/catalog';

/**
 * Gives the Client Components below it the message namespaces they use, and only those: the
 * messages travel in the page's payload. Locale, formats and time zone come from i18n/request.ts.
 * Staff sections only: it loads next-intl's client runtime, which the pages every visitor opens
 * (the guest key, error and 404 pages) do without (decision 013).
 */
export async function ClientMessages({ only, children }: { only: readonly (keyof Messages)[]; children: ReactNode }) {
  const all = (await getMessages()) as Messages;
  const picked = Object.fromEntries(only.map((namespace) => [namespace, all[namespace]]));
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}
