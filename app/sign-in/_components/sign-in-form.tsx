'use client';

import { safeReturnPath } from '@/lib/auth/safe-path';
import { useState, type FormEvent } from 'react';
import { signIn } from 'next-auth/react';

type Labels = {
  email: string;
  password: string;
  submit: string;
  pending: string;
  error: string;
  unavailable: string;
};

type Props = {
  /** The raw `callbackUrl` query parameter; used only if it is a path on this site. */
  callbackUrl?: string;
  labels: Labels;
};

const DEFAULT_DESTINATION = '/desk';

/** Email + password sign-in through next-auth; every failure shows the same message. */
export function SignInForm({ callbackUrl, labels }: Props) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
      setError(labels.error);
    } catch {
      setError(labels.unavailable);
    }
    setPending(false);
  }

  return (
    // method="post" keeps credentials out of the URL should the form ever submit before hydration.
    <form method="post" onSubmit={onSubmit} className="form">
      <div className="field">
        <label htmlFor="sign-in-email" className="field__label">
          {labels.email}
        </label>
        <input
          id="sign-in-email"
          name="email"
          type="email"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          maxLength={320}
          className="input"
          aria-invalid={error === labels.error ? true : undefined}
          aria-describedby="sign-in-error"
        />
      </div>
      <div className="field">
        <label htmlFor="sign-in-password" className="field__label">
          {labels.password}
        </label>
        <input
          id="sign-in-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={1024}
          className="input"
          aria-invalid={error === labels.error ? true : undefined}
          aria-describedby="sign-in-error"
        />
      </div>
      <div id="sign-in-error" role="alert" className="form__error">
        {error}
      </div>
      <button type="submit" className="button button--primary button--block" aria-disabled={pending || undefined}>
        {pending ? labels.pending : labels.submit}
      </button>
    </form>
  );
}
