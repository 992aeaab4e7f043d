import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
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

/** The document shell: `lang` follows the negotiated locale; a skip link leads to each page's <main id="main">. */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, t] = await Promise.all([getLocale(), getT()]);
  return (
    <html lang={locale}>
      <body>
        <a href="#main" className="skip-link">
          {t('a11y.skipToContent')}
        </a>
        {children}
      </body>
    </html>
  );
}
