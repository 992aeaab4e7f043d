'use client';

import { useId } from 'react';
import { usePathname } from 'next/navigation';
import { setLocale } from '@/app/_server/actions';

type Props = {
  current: string;
  label: string;
  submitLabel: string;
  options: readonly { value: string; label: string; lang: string }[];
};

/** A labelled language picker posting to `setLocale`; it returns the user to the page they are on. */
export function LanguageSwitcher({ current, label, submitLabel, options }: Props) {
  const id = useId();
  const pathname = usePathname();
  return (
    <form action={setLocale} className="inline-form">
      <input type="hidden" name="returnTo" value={pathname || '/'} />
      <label htmlFor={id} className="inline-form__label">
        {label}
      </label>
      <select id={id} name="locale" defaultValue={current} className="select select--compact">
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--secondary button--compact">
        {submitLabel}
      </button>
    </form>
  );
}
