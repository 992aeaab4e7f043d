import Link from 'next/link';
import { SiteHeader } from '@/components/site-header';
import { getT } from './_server/i18n';
import { buttonClassName } from '@/components/ui/button';

/** The 404 page for every unknown route. */
export default async function NotFound() {
  const t = await getT();
  return (
    <>
      <SiteHeader staff={null} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('notFound.title')}</h1>
          <p>{t('notFound.body')}</p>
          <Link href="/" className={buttonClassName({ variant: 'secondary' })}>
            {t('notFound.back')}
          </Link>
        </div>
      </main>
    </>
  );
}
