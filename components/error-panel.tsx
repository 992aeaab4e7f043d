'use client';

import { useRouter } from 'next/navigation';
import { createContext, useContext, useTransition, type ReactNode } from 'react';
import type { Messages } from '@/lib/i18n/catalog';

/** The `error` messages, translated: error pages show no other words. */
export type ErrorWords = { [Key in keyof Messages['error']]: string };

type ErrorContextValue = { requestId: string | null; words: ErrorWords };

const ErrorContext = createContext<ErrorContextValue | null>(null);

/**
 * What an error page needs and cannot read itself, being a client component: the request's id
 * (proxy.ts) and its words in the request's language. Set by the root layout, which translates them
 * on the server, so every page carries these six strings rather than an i18n runtime (decision 013).
 */
export function ErrorContextProvider({ children, ...value }: ErrorContextValue & { children: ReactNode }) {
  return <ErrorContext value={value}>{children}</ErrorContext>;
}

type Props = {
  error: Error & { digest?: string };
  reset: () => void;
  /** `guest`: words for the guest key page (the front desk, not support). */
  audience?: 'staff' | 'guest';
};

/**
 * The body of every error.tsx: a plain message, "Try again", and two references support can
 * search the server log for. The request id is that of the request that rendered the page; the
 * digest is the server error's own (instrumentation.ts logs both on one line), and is the one
 * that still matches after client-side navigation, which makes requests of its own.
 */
export function ErrorPanel({ error, reset, audience = 'staff' }: Props) {
  // The root layout always sets it; its absence would be a bug worth a loud error page.
  const { requestId, words } = useContext(ErrorContext)!;
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  return (
    <div className="card" role="alert">
      <h1>{words.title}</h1>
      <p>{audience === 'guest' ? words.guestBody : words.body}</p>
      <dl className="error-references">
        {requestId && (
          <div>
            <dt>{words.requestId}</dt>
            <dd>
              <code data-testid="error-request-id">{requestId}</code>
            </dd>
          </div>
        )}
        {error.digest && (
          <div>
            <dt>{words.digest}</dt>
            <dd>
              <code data-testid="error-digest">{error.digest}</code>
            </dd>
          </div>
        )}
      </dl>
      <button
        type="button"
        className="button button--primary"
        disabled={retrying}
        // A server component's error comes back unless the server renders again: refresh, then reset the boundary.
        onClick={() =>
          startRetry(() => {
            router.refresh();
            reset();
          })
        }
      >
        {words.retry}
      </button>
    </div>
  );
}
