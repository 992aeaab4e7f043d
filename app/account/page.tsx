import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { changePasswordAction } from '@/app/account/actions';
import { ClientMessages } from '@/components/client-messages';
import { PasswordForm } from '@/components/password-form';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { getLocale, getT } from '@/i18n/server';
import { ProfileForm } from '@/app/account/_components/profile-form';
import { getStaff, requireAccount } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('account.title') };
}

/**
 * The signed-in account: its name and language, its teams, and changing its password (which ends every other
 * session).
 */
export default async function AccountPage() {
  const account = await requireAccount('/account');
  if (account.mustChangePassword) redirect('/account/password?returnTo=%2Faccount');
  const [t, staff, locale] = await Promise.all([getT(), getStaff(), getLocale()]);
  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={staff} />
      <main id="main" tabIndex={-1} className="page page--narrow">
        <header className="page__header">
          <h1>{t('account.title')}</h1>
          <p className="page__lead">{t('account.lead', { email: account.user.email })}</p>
        </header>
        <section aria-labelledby="profile-title" className="section card">
          <h2 id="profile-title">{t('account.profile.title')}</h2>
          <p className="muted">{t('account.profile.lead')}</p>
          <ClientMessages only={['account', 'language']}>
            <ProfileForm name={account.user.name} locale={account.user.locale ?? locale} />
          </ClientMessages>
        </section>
        <section aria-labelledby="teams-title" className="section card">
          <h2 id="teams-title">{t('account.teams')}</h2>
          {account.memberships.length > 0 ? (
            <ul data-testid="account-teams">
              {account.memberships.map((m) => (
                <li key={m.tenantId}>
                  {m.tenantName} · {t(`role.${m.role}`)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('account.noTeams')}</p>
          )}
        </section>
        <section aria-labelledby="password-title" className="section card">
          <h2 id="password-title">{t('account.password.title')}</h2>
          <p className="muted">{t('account.password.lead')}</p>
          <ClientMessages only={['account']}>
            <PasswordForm
              action={changePasswordAction}
              withCurrent
              username={account.user.email}
              submit={t('account.password.submit')}
              done={t('account.password.changed')}
              testId="password-change"
            />
          </ClientMessages>
        </section>
      </main>
    </>
  );
}
