import Link from 'next/link';
import { getT } from '@/i18n/server';

/** Inside the manage shell (header and navigation stay): an unknown address, or something this tenant does not have. */
export default async function ManageNotFound() {
  const t = await getT();
  return (
    <div className="card">
      <h1>{t('notFound.manage.title')}</h1>
      <p>{t('notFound.manage.body')}</p>
      <Link href="/manage" className="button button--secondary">
        {t('notFound.manage.back')}
      </Link>
    </div>
  );
}
