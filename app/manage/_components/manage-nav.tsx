import Link from 'next/link';
import { getT } from '@/i18n/server';
import { can, type Permission } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import type { MessageKey } from '@/lib/i18n/catalog';

/**
 * The pages of the manage area, in menu order. To add one (audit log, webhooks, incidents …),
 * add a row here with its id, path, catalog label and the permission that guards the page.
 */
export const MANAGE_NAV_ITEMS = [
  { id: 'overview', href: '/manage', label: 'manage.nav.overview', permission: 'manage.view' },
  { id: 'facilities', href: '/manage/facilities', label: 'facilities.nav', permission: 'property.manage' },
  { id: 'rooms', href: '/manage/rooms', label: 'rooms.nav', permission: 'property.manage' },
  { id: 'room-types', href: '/manage/room-types', label: 'roomTypes.nav', permission: 'property.manage' },
  {
    id: 'booking-sources',
    href: '/manage/booking-sources',
    label: 'bookingSources.nav',
    permission: 'property.manage',
  },
  { id: 'staff', href: '/manage/staff', label: 'staff.nav', permission: 'staff.manage' },
  { id: 'api-keys', href: '/manage/api-keys', label: 'manage.nav.apiKeys', permission: 'api_keys.manage' },
  { id: 'secrets', href: '/manage/secrets', label: 'manage.nav.secrets', permission: 'secrets.manage' },
  { id: 'payments', href: '/manage/payments', label: 'payments.connect.nav', permission: 'payments.manage' },
  { id: 'register', href: '/manage/register', label: 'register.nav', permission: 'register.view' },
  { id: 'audit', href: '/manage/audit', label: 'manage.nav.audit', permission: 'audit.view' },
  { id: 'webhooks', href: '/manage/webhooks', label: 'manage.nav.webhooks', permission: 'webhooks.view' },
  { id: 'locks', href: '/manage/locks', label: 'manage.nav.locks', permission: 'locks.manage' },
  { id: 'incidents', href: '/manage/incidents', label: 'manage.nav.incidents', permission: 'incidents.view' },
  { id: 'mailbox', href: '/manage/mailbox', label: 'mailbox.title', permission: 'mailbox.view' },
] as const satisfies readonly { id: string; href: string; label: MessageKey; permission: Permission }[];

export type ManageNavId = (typeof MANAGE_NAV_ITEMS)[number]['id'];

/** The manage area's sub-navigation: the pages the current role may open, the current one marked. */
export async function ManageNav({ staff, current }: { staff: StaffContext; current: ManageNavId }) {
  const t = await getT();
  const items = MANAGE_NAV_ITEMS.filter((item) => can(staff.current.role, item.permission));
  if (items.length < 2) return null;
  return (
    <nav aria-label={t('manage.nav.label')} className="subnav" data-testid="manage-nav">
      <ul className="subnav__list">
        {items.map((item) => (
          <li key={item.id}>
            <Link href={item.href} className="subnav__link" aria-current={item.id === current ? 'page' : undefined}>
              {t(item.label)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
