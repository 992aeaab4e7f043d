import type { Metadata } from 'next';
import Link from 'next/link';
import { resetPasswordAction } from '@/app/password-reset/actions';
import { ClientMessages } from '@/components/client-messages';
import { PasswordForm } from '@/components/password-form';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { Notice } from '@/components/ui/notice';
import { resetAccountEmail } from '@/lib/auth/password-reset';
import { getT } from '@/i18n/server';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('passwordReset.choose.title') };
}

type Props = { params: Promise<{ token: string }> };

/** A reset link: a new password once, for the account it was sent to; a link that no longer works says so. */
export default async function ChooseNewPasswordPage({ params }: Props) {
  const [t, { token }] = await Promise.all([getT(), params]);
  const email = await resetAccountEmail(token);
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card">
          <h1>{t('passwordReset.choose.title')}</h1>
          {email ? (
            <>
              <p className="muted">{t('passwordReset.choose.lead', { email })}</p>
              <ClientMessages only={['account']}>
                <PasswordForm
                  action={resetPasswordAction}
                  hidden={{ token }}
                  username={email}
                  submit={t('passwordReset.choose.submit')}
                  testId="password-reset"
                />
              </ClientMessages>
            </>
          ) : (
            <>
              <Notice tone="warning" data-testid="reset-invalid">
                {t('passwordReset.choose.invalid')}
              </Notice>
              <p>
                <Link href="/password-reset">{t('passwordReset.choose.again')}</Link>
              </p>
            </>
          )}
        </div>
      </main>
    </>
  );
}
