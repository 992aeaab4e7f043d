import { Select } from '@/components/ui/field';
import { useTranslations } from 'next-intl';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { LOCALES } from '@/lib/i18n/locales';
import { ReturnHereInput, ReturnToInput } from './return-to-input';

/**
 * A labelled language picker posting to `action` (app/_server/actions.ts's `setLocale`); it returns
 * the user to the page they are on (with its query when `keepQuery`).
 * Rendered on the server: only the page's path needs the browser (ReturnToInput), so the guest page
 * and every 404 carry neither these words nor an i18n runtime in their JavaScript (decision 013).
 */
export function LanguageSwitcher({
  current,
  action,
  keepQuery = false,
}: {
  current: string;
  action: (form: FormData) => Promise<void>;
  /** Return to the page's query too (a page whose state is in its URL; dynamic pages only). */
  keepQuery?: boolean;
}) {
  const t = useTranslations();
  const id = useId();
  return (
    <form action={action} className="inline-form">
      {keepQuery ? <ReturnHereInput /> : <ReturnToInput />}
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
