import type { ReactNode } from 'react';
import { setLocale } from '@/app/_server/actions';
import { LanguageSwitcher } from '@/components/language-switcher';
import type { Locale } from '@/lib/i18n/locale';

/**
 * The booking site's frame, phone first like the key page: the property's name and the language
 * switch on top (a visitor who cannot read the page must find it first), then the page.
 */
export function BookingFrame({
  facilityName,
  locale,
  children,
}: {
  facilityName: string;
  locale: Locale;
  children: ReactNode;
}) {
  return (
    <main id="main" tabIndex={-1} className="guest-page book-page">
      <header className="guest-bar">
        <p className="guest-bar__facility">{facilityName}</p>
        <LanguageSwitcher current={locale} action={setLocale} keepQuery />
      </header>
      {children}
    </main>
  );
}
