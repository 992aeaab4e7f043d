import type { ComponentType, ReactNode } from 'react';
import { getLocale, getT } from '@/i18n/server';
import type { StaffContext } from '@/lib/auth/staff';
import { buttonClassName } from '@/components/ui/button';
import { LanguageSwitcher } from './language-switcher';
import { TenantSwitcher } from './tenant-switcher';

/** The server actions the bar's forms post to (app/_server/header-actions.ts: `HEADER_ACTIONS`). */
export type HeaderActions = {
  setLocale: (form: FormData) => Promise<void>;
  switchTenant: (form: FormData) => Promise<void>;
};

/** What draws the bar's own links (product name, sign-in/out): next/link, or a plain <a>. */
export type Anchor =
  'a' | ComponentType<{ href: string; className?: string; 'aria-label'?: string; children?: ReactNode }>;

type Props = {
  /** The signed-in staff member, or null on public pages. */
  staff: StaffContext | null;
  anchor: Anchor;
  actions: HeaderActions;
  /** The section links, when the role may open any. */
  nav?: ReactNode;
  /** Where a tenant switch returns to. */
  tenantReturnTo?: string;
  /** False on the sign-in and sign-out pages themselves. */
  showAuthLink?: boolean;
};

/**
 * The top bar's markup: product name, navigation, tenant and language switchers, the account page,
 * sign-in/out.
 * Pages use SiteHeader; the root 404 page uses this with plain links (decision 013), because every
 * page loads the root not-found boundary's client code, and next/link's is most of it.
 */
export async function HeaderBar({
  staff,
  anchor: A,
  actions,
  nav,
  tenantReturnTo = '/desk',
  showAuthLink = true,
}: Props) {
  const [t, locale] = await Promise.all([getT(), getLocale()]);
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <A href="/" className="brand" aria-label={t('nav.home')}>
          {t('app.name')}
        </A>
        {nav}
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
              returnTo={tenantReturnTo}
              memberships={staff.memberships}
              action={actions.switchTenant}
            />
          )}
          <LanguageSwitcher current={locale} action={actions.setLocale} />
          {staff && showAuthLink && (
            <A href="/account" className={buttonClassName({ variant: 'ghost', size: 'compact' })}>
              {t('nav.account')}
            </A>
          )}
          {showAuthLink && (
            <A
              href={staff ? '/sign-out' : '/sign-in'}
              className={buttonClassName({ variant: 'ghost', size: 'compact' })}
            >
              {staff ? t('nav.signOut') : t('nav.signIn')}
            </A>
          )}
        </div>
      </div>
    </header>
  );
}
