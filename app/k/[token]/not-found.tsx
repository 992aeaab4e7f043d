import { getT } from '@/i18n/server';

/** A guest link that is unknown or expired: said plainly, with no staff navigation. */
export default async function GuestLinkNotFound() {
  const t = await getT();
  return (
    <main id="main" tabIndex={-1} className="page page--narrow">
      <div className="card" role="status">
        <h1>{t('guest.notFound')}</h1>
        <p>{t('guest.notFoundHelp')}</p>
      </div>
    </main>
  );
}
