import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { SignUpForm } from '@/app/sign-up/_components/sign-up-form';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { Notice } from '@/components/ui/notice';
import { timeZoneChoices } from '@/lib/facilities/time-zones';
import { SIGN_UP_LINK_HOURS, signUpOpen } from '@/lib/staff/sign-up';
import { getT } from '@/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('signUp.title') };
}

/**
 * Sign-up: an organisation, its first facility and its manager, made once the email is proven by the
 * link mailed to it. Closed on this install (`SIGN_UP=closed`): says so, and has no form.
 */
export default async function SignUpPage() {
  // SIGN_UP is read when the page is asked for, not when it was built.
  await connection();
  const t = await getT();
  const open = signUpOpen();
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('signUp.title')}</h1>
          {open ? (
            <>
              <p className="muted">{t('signUp.lead', { hours: SIGN_UP_LINK_HOURS })}</p>
              <ClientMessages only={['signUp', 'account']}>
                <SignUpForm zones={timeZoneChoices()} />
              </ClientMessages>
            </>
          ) : (
            <Notice tone="info" data-testid="sign-up-closed">
              {t('signUp.closed')}
            </Notice>
          )}
          <p>
            {t('signUp.haveAccount')} <Link href="/sign-in">{t('signUp.signIn')}</Link>
          </p>
        </div>
      </main>
    </>
  );
}
