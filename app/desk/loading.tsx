import { getT } from '../_server/i18n';

/** Shown at once while a desk page reads its data; the section's header stays in place. */
export default async function DeskLoading() {
  const t = await getT();
  return (
    <p className="page-loading" role="status" aria-live="polite">
      {t('loading.page')}
    </p>
  );
}
