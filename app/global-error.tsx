'use client';

import { useEffect, useState } from 'react';
import type { Locale, Translate } from '@/lib/i18n/locale';
import './globals.css';

type Words = { locale: Locale; t: Translate };

/**
 * When the root layout itself fails, this replaces the whole document. No layout means no
 * server-chosen language and no request id: the language follows the browser's, and the error's
 * digest is the reference (instrumentation.ts logs it with the request id). The catalogue is
 * loaded only when this page shows, so it does not ride along with every page's JavaScript.
 * "Try again" reloads: the document itself failed on the server, and only a new request renders it.
 */
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  const [words, setWords] = useState<Words | null>(null);
  useEffect(() => {
    void import('@/lib/i18n/locale').then(({ negotiateLocale, translator }) => {
      const locale = negotiateLocale(navigator.languages.join(','));
      setWords({ locale, t: translator(locale) });
    });
  }, []);
  const t = words?.t;
  return (
    <html lang={words?.locale ?? 'en'}>
      <body>
        <main id="main" tabIndex={-1} className="page page--narrow">
          <div className="card" role="alert">
            {t && <h1>{t('error.title')}</h1>}
            {t && <p>{t('error.body')}</p>}
            {error.digest && (
              <p>
                {t && `${t('error.digest')}: `}
                <code data-testid="error-digest">{error.digest}</code>
              </p>
            )}
            <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
              {t ? t('error.retry') : '↻'}
            </button>
          </div>
        </main>
      </body>
    </html>
  );
}
