import { getT } from '@/i18n/server';

/** An unknown or unpublished booking site: said plainly, with no staff navigation. */
export default async function BookingSiteNotFound() {
  const t = await getT();
  return (
    <main id="main" tabIndex={-1} className="page page--narrow">
      <div className="card" role="status">
        <h1>{t('bookingSite.errors.notFound')}</h1>
      </div>
    </main>
  );
}
