'use client';

import { FormError } from '@/components/ui/notice';
import { EMAIL_INPUT, Field, Input } from '@/components/ui/field';
import { safeReturnPath } from '@/lib/auth/safe-path';
import { useTranslations } from 'next-intl';
import { useState, type FormEvent } from 'react';
import { signIn } from 'next-auth/react';
import { Button } from '@/components/ui/button';

type Props = {
  /** The raw `callbackUrl` query parameter; used only if it is a path on this site. */
  callbackUrl?: string;
  /** The email filled in (a sign-up's link sends its email's owner here). */
  email?: string;
};

const DEFAULT_DESTINATION = '/desk';

/** Email + password sign-in through next-auth; every failure shows the same message. */
export function SignInForm({ callbackUrl, email }: Props) {
  const t = useTranslations('signIn');
  const [pending, setPending] = useState(false);
  // Which message shows; the words are read when rendering, in the page's language.
  const [error, setError] = useState<'error' | 'unavailable' | null>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const result = await signIn('credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        redirect: false,
      });
      if (result?.ok && !result.error) {
        window.location.assign(safeReturnPath(callbackUrl, DEFAULT_DESTINATION));
        return;
      }
      setError('error');
    } catch {
      setError('unavailable');
    }
    setPending(false);
  }

  return (
    // method="post" keeps credentials out of the URL should the form ever submit before hydration.
    <form method="post" onSubmit={onSubmit} className="form">
      <Field id="sign-in-email" label={t('email')} describedBy="sign-in-error">
        {(control) => (
          <Input
            {...control}
            {...EMAIL_INPUT}
            defaultValue={email}
            aria-invalid={error === 'error' ? true : undefined}
          />
        )}
      </Field>
      <Field id="sign-in-password" label={t('password')} describedBy="sign-in-error">
        {(control) => (
          <Input
            {...control}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
            aria-invalid={error === 'error' ? true : undefined}
          />
        )}
      </Field>
      <FormError as="div" id="sign-in-error">
        {error && t(error)}
      </FormError>
      <Button variant="primary" block type="submit" aria-disabled={pending || undefined}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
