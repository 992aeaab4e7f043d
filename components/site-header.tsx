import Link from 'next/link';
import { getLocale, getT } from '@/app/_server/i18n';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import { LOCALES } from '@/lib/i18n/locale';
import { LanguageSwitcher } from './language-switcher';
import { SiteNav } from './site-nav';
import { TenantSwitcher } from './tenant-switcher';
import { buttonClassName } from '@/components/ui/button';

type Section = 'desk' | 'bookings' | 'manage';

type Props = {
  /** The signed-in staff member, or null on public pages. */
  staff: StaffContext | null;
  /** The section being shown: where a tenant switch returns to. */
  section?: Section;
  /** False on the sign-in and sign-out pages themselves. */
  showAuthLink?: boolean;
};

const SECTION_PATHS: Record<Section, string> = { desk: '/desk', bookings: '/desk/bookings', manage: '/manage' };

/** The top bar: product name, the sections the current role may open, tenant and language switchers, sign-in/out. */
export async function SiteHeader({ staff, section, showAuthLink = true }: Props) {
  const [t, locale] = await Promise.all([getT(), getLocale()]);
  const role = staff?.current.role;
  const links = (
    [
      { section: 'desk', label: t('nav.desk'), allowed: role !== undefined && can(role, 'desk.view') },
      { section: 'bookings', label: t('nav.bookings'), allowed: role !== undefined && can(role, 'desk.view') },
      { section: 'manage', label: t('nav.manage'), allowed: role !== undefined && can(role, 'manage.view') },
    ] as const
  ).filter((link) => link.allowed);

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link href="/" className="brand" aria-label={t('nav.home')}>
          {t('app.name')}
        </Link>
        {links.length > 0 && (
          <SiteNav
            label={t('a11y.mainNav')}
            links={links.map((link) => ({ href: SECTION_PATHS[link.section], label: link.label }))}
          />
        )}
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
              returnTo={section ? SECTION_PATHS[section] : '/desk'}
              label={t('tenantSwitcher.label')}
              submitLabel={t('tenantSwitcher.submit')}
              options={staff.memberships.map((m) => ({
                value: m.tenantId,
                label: `${m.tenantName} (${t(`role.${m.role}`)})`,
              }))}
            />
          )}
          <LanguageSwitcher
            current={locale}
            label={t('languageSwitcher.label')}
            submitLabel={t('languageSwitcher.submit')}
            options={LOCALES.map((l) => ({ value: l, label: t(`language.${l}`), lang: l }))}
          />
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
  );
}
