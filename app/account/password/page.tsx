import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { changePasswordAction } from '@/app/account/actions';
import { ClientMessages } from '@/components/client-messages';
import { PasswordForm } from '@/components/password-form';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { safeReturnPath } from '@/lib/auth/safe-path';
import { getT } from '@/i18n/server';
import { requireAccount } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('account.first.title') };
}

type Props = { searchParams: Promise<{ returnTo?: string | string[] }> };

/**
 * "Choose your password": where a session a one-time password opened goes before anything else;
 * saving returns to where it was headed.
 */
export default async function ChoosePasswordPage({ searchParams }: Props) {
  const [account, t, { returnTo }] = await Promise.all([requireAccount('/account/password'), getT(), searchParams]);
  const next = safeReturnPath(typeof returnTo === 'string' ? returnTo : undefined, '/desk');
  if (!account.mustChangePassword) redirect(next);
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('account.first.title')}</h1>
          <p className="muted">{t('account.first.lead')}</p>
          <ClientMessages only={['account']}>
            <PasswordForm
              action={changePasswordAction}
              hidden={{ returnTo: next }}
              username={account.user.email}
              submit={t('account.first.submit')}
              testId="password-first"
            />
          </ClientMessages>
        </div>
      </main>
    </>
  );
}
