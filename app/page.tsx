import Link from 'next/link';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { getT } from '@/i18n/server';
import { buttonClassName } from '@/components/ui/button';
import { signUpOpen } from '@/lib/staff/sign-up';
import { connection } from 'next/server';

/** The public landing page: what UnlockOS is, and the ways in. */
export default async function HomePage() {
  // SIGN_UP is read when the page is asked for, not when it was built.
  await connection();
  const t = await getT();
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} />
      <main id="main" tabIndex={-1} className="page">
        <header className="page__header">
          <h1>{t('home.title')}</h1>
          <p className="page__lead">{t('home.lead')}</p>
        </header>
        <ul className="feature-list">
          <li>{t('home.guestPoint')}</li>
          <li>{t('home.deskPoint')}</li>
          <li>{t('home.managerPoint')}</li>
        </ul>
        <section aria-labelledby="home-links">
          <h2 id="home-links">{t('home.linksHeading')}</h2>
          <ul className="actions">
            <li>
              <Link href="/sign-in" className={buttonClassName({ variant: 'primary' })}>
                {t('home.signIn')}
              </Link>
            </li>
            {signUpOpen() && (
              <li>
                <Link href="/sign-up" className={buttonClassName({ variant: 'secondary' })} data-testid="home-sign-up">
                  {t('home.signUp')}
                </Link>
              </li>
            )}
            <li>
              <Link href="/desk" className={buttonClassName({ variant: 'secondary' })}>
                {t('home.desk')}
              </Link>
            </li>
            <li>
              <Link href="/manage" className={buttonClassName({ variant: 'secondary' })}>
                {t('home.manage')}
              </Link>
            </li>
          </ul>
        </section>
      </main>
    </>
  );
}
