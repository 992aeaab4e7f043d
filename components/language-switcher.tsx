'use client';

import { Select } from '@/components/ui/field';
import { useId } from 'react';
import { usePathname } from 'next/navigation';
import { setLocale } from '@/app/_server/actions';
import { Button } from '@/components/ui/button';

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
      <Select compact id={id} name="locale" defaultValue={current}>
        {options.map((option) => (
          <option key={option.value} value={option.value} lang={option.lang}>
            {option.label}
          </option>
        ))}
      </Select>
      <Button size="compact" type="submit">
        {submitLabel}
      </Button>
    </form>
  );
}
