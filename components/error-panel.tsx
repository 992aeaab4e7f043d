'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { createContext, useContext, useTransition, type ReactNode } from 'react';

const RequestIdContext = createContext<string | null>(null);

/**
 * What an error page needs and cannot read itself, being a client component: the request's id
 * (proxy.ts). Set by the root layout; the words come from its `error` messages (ClientMessages).
 */
export function RequestIdProvider({ requestId, children }: { requestId: string | null; children: ReactNode }) {
  return <RequestIdContext value={requestId}>{children}</RequestIdContext>;
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
  const t = useTranslations('error');
  const requestId = useContext(RequestIdContext);
  const router = useRouter();
  const [retrying, startRetry] = useTransition();
  return (
    <div className="card" role="alert">
      <h1>{t('title')}</h1>
      <p>{audience === 'guest' ? t('guestBody') : t('body')}</p>
      <dl className="error-references">
        {requestId && (
          <div>
            <dt>{t('requestId')}</dt>
            <dd>
              <code data-testid="error-request-id">{requestId}</code>
            </dd>
          </div>
        )}
        {error.digest && (
          <div>
            <dt>{t('digest')}</dt>
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
        {t('retry')}
      </button>
    </div>
  );
}
