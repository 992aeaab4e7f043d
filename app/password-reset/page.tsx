import type { Metadata } from 'next';
import Link from 'next/link';
import { ResetRequestForm } from '@/app/password-reset/_components/reset-request-form';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { getT } from '@/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('passwordReset.title') };
}

/** "Forgot your password": asks for a reset link (1 h, single use) for an email. */
export default async function PasswordResetPage() {
  const t = await getT();
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('passwordReset.title')}</h1>
          <p className="muted">{t('passwordReset.lead')}</p>
          <ClientMessages only={['passwordReset']}>
            <ResetRequestForm />
          </ClientMessages>
          <p>
            <Link href="/sign-in">{t('passwordReset.backToSignIn')}</Link>
          </p>
        </div>
      </main>
    </>
  );
}
