import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { ClientMessages } from '@/components/client-messages';
import { RequestIdProvider } from '@/components/error-panel';
import './fonts.css';
import './globals.css';
import { getLocale, getT } from './_server/i18n';

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
 * <main id="main">; error pages get the request id, and their words in this locale as the only
 * messages every page's client carries. A nested provider replaces these messages: one in a
 * section's layout wraps that section's error.tsx, so it must carry `error` too.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, t, requestHeaders] = await Promise.all([getLocale(), getT(), headers()]);
  return (
    <html lang={locale}>
      <body>
        <a href="#main" className="skip-link">
          {t('a11y.skipToContent')}
        </a>
        <ClientMessages only={['error']}>
          <RequestIdProvider requestId={requestHeaders.get('x-request-id')}>{children}</RequestIdProvider>
        </ClientMessages>
      </body>
    </html>
  );
}
