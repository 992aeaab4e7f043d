import type { Metadata } from 'next';
import Link from 'next/link';
import { SignOutButton } from '@/app/sign-out/_components/sign-out-button';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { getT } from '@/i18n/server';
import { buttonClassName } from '@/components/ui/button';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('signOut.title') };
}

/** Confirms before ending the session (a plain GET link must not sign anyone out). */
export default async function SignOutPage() {
  const t = await getT();
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('signOut.title')}</h1>
          <p>{t('signOut.confirm')}</p>
          <div className="actions">
            <ClientMessages only={['signOut']}>
              <SignOutButton />
            </ClientMessages>
            <Link href="/desk" className={buttonClassName({ variant: 'secondary' })}>
              {t('signOut.cancel')}
            </Link>
          </div>
        </div>
      </main>
    </>
  );
}
