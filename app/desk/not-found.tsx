import Link from 'next/link';
import { getT } from '@/i18n/server';

/** Inside the desk shell (header and navigation stay): an unknown address, or something this tenant does not have. */
export default async function DeskNotFound() {
  const t = await getT();
  return (
    <div className="card">
      <h1>{t('notFound.desk.title')}</h1>
      <p>{t('notFound.desk.body')}</p>
      <Link href="/desk" className="button button--secondary">
        {t('notFound.desk.back')}
      </Link>
    </div>
  );
}
