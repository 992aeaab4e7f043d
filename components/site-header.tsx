import Link from 'next/link';
import { getT } from '@/i18n/server';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import { HeaderBar, type HeaderActions } from './header-bar';
import { SiteNav, type NavSection } from './site-nav';

type Props = {
  /** The signed-in staff member, or null on public pages. */
  staff: StaffContext | null;
  /** The server actions of the tenant and language switchers. */
  actions: HeaderActions;
  /** The section being shown: where a tenant switch returns to. */
  section?: NavSection;
  /** False on the sign-in and sign-out pages themselves. */
  showAuthLink?: boolean;
};

const SECTION_PATHS: Record<NavSection, string> = { desk: '/desk', bookings: '/desk/bookings', manage: '/manage' };

/** The top bar: product name, the sections the current role may open, tenant and language switchers, sign-in/out. */
export async function SiteHeader({ staff, actions, section, showAuthLink = true }: Props) {
  const t = await getT();
  const role = staff?.current.role;
  const links = (
    [
      { section: 'desk', allowed: role !== undefined && can(role, 'desk.view') },
      { section: 'bookings', allowed: role !== undefined && can(role, 'desk.view') },
      { section: 'manage', allowed: role !== undefined && can(role, 'manage.view') },
    ] as const
  )
    .filter((link) => link.allowed)
    .map((link) => ({ href: SECTION_PATHS[link.section], label: t(`nav.${link.section}`) }));

  return (
    <HeaderBar
      staff={staff}
      anchor={Link}
      actions={actions}
      nav={links.length > 0 && <SiteNav label={t('a11y.mainNav')} links={links} />}
      tenantReturnTo={SECTION_PATHS[section ?? 'desk']}
      showAuthLink={showAuthLink}
    />
  );
}
