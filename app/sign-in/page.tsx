import type { Metadata } from 'next';
import Link from 'next/link';
import { SignInForm } from '@/app/sign-in/_components/sign-in-form';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { Notice } from '@/components/ui/notice';
import { signUpOpen } from '@/lib/staff/sign-up';
import { getT } from '@/i18n/server';
import { getAccount } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('signIn.title') };
}

type Props = {
  searchParams: Promise<{
    callbackUrl?: string | string[];
    passwordChanged?: string | string[];
    email?: string | string[];
  }>;
};

/**
 * Staff sign-in; the form returns to `callbackUrl` when it is a path on this site. Says so after a
 * reset link changed the password, and tells an account signed in without any tenant (deactivated
 * everywhere, or an invitation not yet accepted) what to do instead of asking it to sign in again.
 * `email` fills the email in (a sign-up's link sends its email's owner here); while sign-up is open,
 * it links there.
 */
export default async function SignInPage({ searchParams }: Props) {
  const [t, { callbackUrl, passwordChanged, email }, account] = await Promise.all([getT(), searchParams, getAccount()]);
  const withoutTenant = account && !account.mustChangePassword && account.memberships.length === 0;
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('signIn.title')}</h1>
          {passwordChanged === '1' && (
            <Notice tone="success" data-testid="sign-in-password-changed">
              {t('signIn.passwordChanged')}
            </Notice>
          )}
          {withoutTenant && (
            <Notice tone="info" data-testid="sign-in-no-tenant">
              {t('signIn.noTenant', { email: account.user.email })}
            </Notice>
          )}
          <p className="muted">{t('signIn.intro')}</p>
          <ClientMessages only={['signIn']}>
            <SignInForm
              callbackUrl={typeof callbackUrl === 'string' ? callbackUrl : undefined}
              email={typeof email === 'string' ? email.slice(0, 320) : undefined}
            />
          </ClientMessages>
          <p>
            <Link href="/password-reset" data-testid="sign-in-forgot">
              {t('signIn.forgot')}
            </Link>
          </p>
          {signUpOpen() && (
            <p>
              {t('signIn.noAccount')}{' '}
              <Link href="/sign-up" data-testid="sign-in-sign-up">
                {t('signIn.signUp')}
              </Link>
            </p>
          )}
        </div>
      </main>
    </>
  );
}
