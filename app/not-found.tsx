import { HeaderBar } from '@/components/header-bar';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { getT } from '@/i18n/server';
import { buttonClassName } from '@/components/ui/button';

/**
 * The 404 page for every unknown route. Its links are plain <a>: every page loads this boundary's
 * client code, and a 404 is left by a full page load anyway (decision 013).
 */
export default async function NotFound() {
  const t = await getT();
  return (
    <>
      <HeaderBar actions={HEADER_ACTIONS} staff={null} anchor="a" />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('notFound.title')}</h1>
          <p>{t('notFound.body')}</p>
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- a plain link on purpose (above) */}
          <a href="/" className={buttonClassName({ variant: 'secondary' })}>
            {t('notFound.back')}
          </a>
        </div>
      </main>
    </>
  );
}
