import type { Metadata } from 'next';
import Link from 'next/link';
import { SignUpComplete } from '@/app/sign-up/_components/sign-up-complete';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { buttonClassName } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { formatDateTime } from '@/lib/i18n/formats';
import { choosesPassword, readSignUp, signUpOpen } from '@/lib/staff/sign-up';
import { getLocale, getT } from '@/i18n/server';
import { getAccount } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('signUp.link.title') };
}

type Props = { params: Promise<{ token: string }> };

/**
 * A sign-up's link, opened by whoever holds it (the mail went to the email): what it will open, and
 * what opens it — the account's password, chosen here, and one button (issue 43.1: only the person who
 * followed the link types the password). When the email already has an account, its owner signs in as it first
 * (the sign-in page has the email filled in); another account signed in is told so. A link that no
 * longer works says so, whatever the reason; closed sign-up says that. Reading the page writes nothing.
 */
export default async function SignUpLinkPage({ params }: Props) {
  const [t, locale, { token }, account] = await Promise.all([getT(), getLocale(), params, getAccount()]);
  const open = signUpOpen();
  const signUp = open ? await readSignUp(token) : null;
  const back = `/sign-up/${token}`;
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={null} showAuthLink={false} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <div className="card" data-testid="sign-up-link">
          <h1>{t('signUp.link.title')}</h1>
          {!open ? (
            <Notice tone="info" data-testid="sign-up-closed">
              {t('signUp.closed')}
            </Notice>
          ) : !signUp ? (
            <>
              <Notice tone="warning" data-testid="sign-up-invalid">
                {t('signUp.link.invalid')}
              </Notice>
              <p>
                <Link href="/sign-up">{t('signUp.link.again')}</Link>
              </p>
            </>
          ) : (
            <>
              <p>{t('signUp.link.proven', { email: signUp.email })}</p>
              <ul data-testid="sign-up-summary">
                <li>
                  {t('signUp.organisationName')}: <strong>{signUp.organisationName}</strong>
                </li>
                <li>
                  {t('signUp.facilityName')}: <strong>{signUp.facilityName}</strong> ({signUp.timeZone})
                </li>
              </ul>
              <p className="muted">
                {t('signUp.link.expires', {
                  time: `${formatDateTime(signUp.expiresAt, 'stamp', { locale, timeZone: 'UTC' })} UTC`,
                })}
              </p>
              {signUp.accountUserId && !account ? (
                <>
                  <p>{t('signUp.link.signInFirst', { email: signUp.email })}</p>
                  <Link
                    href={`/sign-in?callbackUrl=${encodeURIComponent(back)}&email=${encodeURIComponent(signUp.email)}`}
                    className={buttonClassName({ variant: 'primary' })}
                    data-testid="sign-up-sign-in"
                  >
                    {t('signUp.link.signIn')}
                  </Link>
                </>
              ) : signUp.accountUserId && account && account.user.id !== signUp.accountUserId ? (
                <>
                  <Notice tone="warning" data-testid="sign-up-other-account">
                    {t('signUp.link.otherAccount', { email: signUp.email, current: account.user.email })}
                  </Notice>
                  <Link href="/sign-out" className={buttonClassName({ variant: 'secondary' })}>
                    {t('nav.signOut')}
                  </Link>
                </>
              ) : (
                <ClientMessages only={['signUp', 'account']}>
                  <SignUpComplete
                    token={token}
                    organisation={signUp.organisationName}
                    email={signUp.email}
                    choosePassword={choosesPassword(signUp)}
                  />
                </ClientMessages>
              )}
            </>
          )}
        </div>
      </main>
    </>
  );
}
