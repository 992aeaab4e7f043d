import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { ErrorContextProvider, type ErrorWords } from '@/components/error-panel';
import './fonts.css';
import './globals.css';
import { getLocale, getT } from '@/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getT();
  return { title: { default: t('app.name'), template: `%s · ${t('app.name')}` }, description: t('app.tagline') };
}

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  themeColor: '#ffffff',
  colorScheme: 'light',
};

/**
 * The document shell: `lang` follows the negotiated locale; a skip link leads to each page's
 * <main id="main">; error pages get the request id and their words in this locale, translated here:
 * no page loads next-intl's client runtime for its error boundary (decision 013).
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, t, requestHeaders] = await Promise.all([getLocale(), getT(), headers()]);
  const errorWords: ErrorWords = {
    title: t('error.title'),
    body: t('error.body'),
    guestBody: t('error.guestBody'),
    retry: t('error.retry'),
    requestId: t('error.requestId'),
    digest: t('error.digest'),
  };
  return (
    <html lang={locale}>
      <body>
        <a href="#main" className="skip-link">
          {t('a11y.skipToContent')}
        </a>
        <ErrorContextProvider requestId={requestHeaders.get('x-request-id')} words={errorWords}>
          {children}
        </ErrorContextProvider>
      </body>
    </html>
  );
}
