import { getT } from '../_server/i18n';

/** Shown at once while a manage page reads its data; the section's header stays in place. */
export default async function ManageLoading() {
  const t = await getT();
  return (
    <p className="page-loading" role="status" aria-live="polite">
      {t('loading.page')}
    </p>
  );
}
