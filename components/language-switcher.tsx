'use client';

import { Select } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { usePathname } from 'next/navigation';
import { setLocale } from '@/app/_server/actions';
import { Button } from '@/components/ui/button';
import { LOCALES } from '@/lib/i18n/locales';

/** A labelled language picker posting to `setLocale`; it returns the user to the page they are on. */
export function LanguageSwitcher({ current }: { current: string }) {
  const t = useTranslations();
  const id = useId();
  const pathname = usePathname();
  return (
    <form action={setLocale} className="inline-form">
      <input type="hidden" name="returnTo" value={pathname || '/'} />
      <label htmlFor={id} className="inline-form__label">
        {t('languageSwitcher.label')}
      </label>
      <Select compact id={id} name="locale" defaultValue={current}>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale}>
            {t(`language.${locale}`)}
          </option>
        ))}
      </Select>
      <Button size="compact" type="submit">
        {t('languageSwitcher.submit')}
      </Button>
    </form>
  );
}
