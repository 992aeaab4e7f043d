import type { Metadata } from 'next';
import Link from 'next/link';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { getT } from '@/i18n/server';
import { getStaff } from '@/app/_server/staff';
import { buttonClassName } from '@/components/ui/button';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('forbidden.title') };
}

/** Where a guard sends a signed-in user whose role does not allow the page (HTTP 403 in meaning). */
export default async function ForbiddenPage() {
  const [t, staff] = await Promise.all([getT(), getStaff()]);
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={staff} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('forbidden.title')}</h1>
          <p>{t('forbidden.body')}</p>
          <Link href="/" className={buttonClassName({ variant: 'secondary' })}>
            {t('forbidden.back')}
          </Link>
        </div>
      </main>
    </>
  );
}
