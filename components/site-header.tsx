import Link from 'next/link';
import { getLocale, getT } from '@/app/_server/i18n';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import { ClientMessages } from './client-messages';
import { LanguageSwitcher } from './language-switcher';
import { SiteNav, type NavSection } from './site-nav';
import { TenantSwitcher } from './tenant-switcher';
import { buttonClassName } from '@/components/ui/button';

type Props = {
  /** The signed-in staff member, or null on public pages. */
  staff: StaffContext | null;
  /** The section being shown: where a tenant switch returns to. */
  section?: NavSection;
  /** False on the sign-in and sign-out pages themselves. */
  showAuthLink?: boolean;
};

const SECTION_PATHS: Record<NavSection, string> = { desk: '/desk', bookings: '/desk/bookings', manage: '/manage' };

/** The top bar: product name, the sections the current role may open, tenant and language switchers, sign-in/out. */
export async function SiteHeader({ staff, section, showAuthLink = true }: Props) {
  const [t, locale] = await Promise.all([getT(), getLocale()]);
  const role = staff?.current.role;
  const links = (
    [
      { section: 'desk', allowed: role !== undefined && can(role, 'desk.view') },
      { section: 'bookings', allowed: role !== undefined && can(role, 'desk.view') },
      { section: 'manage', allowed: role !== undefined && can(role, 'manage.view') },
    ] as const
  )
    .filter((link) => link.allowed)
    .map((link) => ({ href: SECTION_PATHS[link.section], section: link.section }));

  return (
    // The header's client parts (navigation, language switcher) carry only their own words.
    <ClientMessages only={['nav', 'a11y', 'languageSwitcher', 'language']}>
      <header className="site-header">
        <div className="site-header__inner">
          <Link href="/" className="brand" aria-label={t('nav.home')}>
            {t('app.name')}
          </Link>
          {links.length > 0 && <SiteNav links={links} />}
          <div className="site-header__tools">
            {staff && (
              <dl className="context-badge">
                <div>
                  <dt>{t('header.tenant')}</dt>
                  <dd>{staff.current.tenantName}</dd>
                </div>
                <div>
                  <dt>{t('header.role')}</dt>
                  <dd>{t(`role.${staff.current.role}`)}</dd>
                </div>
              </dl>
            )}
            {staff && staff.memberships.length > 1 && (
              <TenantSwitcher
                currentTenantId={staff.current.tenantId}
                returnTo={SECTION_PATHS[section ?? 'desk']}
                memberships={staff.memberships}
              />
            )}
            <LanguageSwitcher current={locale} />
            {showAuthLink && (
              <Link
                href={staff ? '/sign-out' : '/sign-in'}
                className={buttonClassName({ variant: 'ghost', size: 'compact' })}
              >
                {staff ? t('nav.signOut') : t('nav.signIn')}
              </Link>
            )}
          </div>
        </div>
      </header>
    </ClientMessages>
  );
}
