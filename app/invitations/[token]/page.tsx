import type { Metadata } from 'next';
import Link from 'next/link';
import { activateAccountAction } from '@/app/invitations/actions';
import { InvitationAnswer } from '@/app/invitations/_components/invitation-answer';
import { ClientMessages } from '@/components/client-messages';
import { PasswordForm } from '@/components/password-form';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { buttonClassName } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { formatDateTime } from '@/lib/i18n/formats';
import { readInvitation } from '@/lib/staff/invitations';
import { getLocale, getT } from '@/i18n/server';
import { getAccount } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('invitation.title') };
}

type Props = { params: Promise<{ token: string }> };

/**
 * An invitation's link, opened by whoever holds it (the mail went to the invited address): a new
 * account chooses its password here and joins; an existing one signs in and accepts or declines;
 * another account signed in is told so. A link that no longer works says so, whatever the reason.
 */
export default async function InvitationPage({ params }: Props) {
  const [t, locale, { token }, account] = await Promise.all([getT(), getLocale(), params, getAccount()]);
  const invitation = await readInvitation(token);
  const vars = invitation && {
    tenant: invitation.tenantName,
    email: invitation.email,
    role: t(`role.${invitation.role}`),
  };
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card" data-testid="invitation">
          <h1>{t('invitation.title')}</h1>
          {!invitation || !vars ? (
            <Notice tone="warning" data-testid="invitation-invalid">
              {t('invitation.invalid')}
            </Notice>
          ) : (
            <>
              <p>{t('invitation.invites', vars)}</p>
              <p className="muted">
                {t('invitation.expires', {
                  time: `${formatDateTime(invitation.expiresAt, 'stamp', { locale, timeZone: 'UTC' })} UTC`,
                })}
              </p>
              {invitation.needsPassword ? (
                <>
                  <p>{t('invitation.choosePassword')}</p>
                  <ClientMessages only={['account']}>
                    <PasswordForm
                      action={activateAccountAction}
                      hidden={{ token }}
                      username={invitation.email}
                      submit={t('invitation.activate')}
                      testId="invitation-activate"
                    />
                  </ClientMessages>
                </>
              ) : !account ? (
                <>
                  <p>{t('invitation.signInToAccept')}</p>
                  <Link
                    href={`/sign-in?callbackUrl=${encodeURIComponent(`/invitations/${token}`)}`}
                    className={buttonClassName({ variant: 'primary' })}
                    data-testid="invitation-sign-in"
                  >
                    {t('invitation.signIn')}
                  </Link>
                </>
              ) : account.user.id !== invitation.userId ? (
                <>
                  <Notice tone="warning" data-testid="invitation-other-account">
                    {t('invitation.otherAccount', { email: invitation.email, current: account.user.email })}
                  </Notice>
                  <Link href="/sign-out" className={buttonClassName({ variant: 'secondary' })}>
                    {t('nav.signOut')}
                  </Link>
                </>
              ) : (
                <ClientMessages only={['invitation']}>
                  <InvitationAnswer token={token} tenant={invitation.tenantName} />
                </ClientMessages>
              )}
            </>
          )}
        </div>
      </main>
    </>
  );
}
