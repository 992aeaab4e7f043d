import { useTranslations } from 'next-intl';

/**
 * What a staff page shows at once while it reads its data; the section's header stays in place.
 * Each page folder's loading.tsx uses it. None sits above a section's catch-all or the reservation
 * page, so an unknown address there is a real 404, not a "not found" streamed after a 200.
 */
export function PageLoading() {
  const t = useTranslations('loading');
  return (
    <p className="page-loading" role="status" aria-live="polite">
      {t('page')}
    </p>
  );
}
