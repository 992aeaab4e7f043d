'use client';

import { useRouter } from 'next/navigation';
import { createContext, useContext, useTransition, type ReactNode } from 'react';

export type ErrorLabels = {
  title: string;
  body: string;
  guestBody: string;
  retry: string;
  requestId: string;
  digest: string;
};

type ErrorContextValue = { requestId: string | null; labels: ErrorLabels };

const ErrorContext = createContext<ErrorContextValue | null>(null);

/**
 * What an error page needs and cannot read itself, being a client component: the request's id
 * (proxy.ts) and the error strings in the request's language. Set by the root layout.
 */
export function ErrorContextProvider({ children, ...value }: ErrorContextValue & { children: ReactNode }) {
  return <ErrorContext.Provider value={value}>{children}</ErrorContext.Provider>;
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
  const context = useContext(ErrorContext);
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  if (!context) return null;
  const { labels, requestId } = context;
  return (
    <div className="card" role="alert">
      <h1>{labels.title}</h1>
      <p>{audience === 'guest' ? labels.guestBody : labels.body}</p>
      <dl className="error-references">
        {requestId && (
          <div>
            <dt>{labels.requestId}</dt>
            <dd>
              <code data-testid="error-request-id">{requestId}</code>
            </dd>
          </div>
        )}
        {error.digest && (
          <div>
            <dt>{labels.digest}</dt>
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
        {labels.retry}
      </button>
    </div>
  );
}
