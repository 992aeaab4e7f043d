import type { Metadata } from 'next';
import Link from 'next/link';
import { ListSection, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { can } from '@/lib/auth/permissions';
import { tenantOverview } from '@/lib/overview/tenant-overview';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { TimesIn, When } from '@/components/time';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { buttonClassName } from '@/components/ui/button';
import { Badge } from '@/components/ui/badge';
import { OverviewCharts, OverviewTiles } from '@/app/manage/_components/overview-tiles';
import { overviewFigures } from '@/lib/overview/overview-figures';
import { paymentStandinUrl } from '@/lib/payments/stripe-client';
import { setupChecklist } from '@/lib/overview/setup-checklist';
import { SetupChecklist } from '@/app/manage/_components/setup-checklist';
import { Notice } from '@/components/ui/notice';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('manage.title') };
}

/**
 * The tenant at a glance: what needs a person now (occupancy, keys not on their lock, incidents,
 * webhook and message failures) and the last 14 days in small charts, then facilities, rooms, staff
 * and API keys (never their secrets). For managers, until the tenant is set up, the first-run checklist
 * comes first; a sign-up lands here (`welcome=1`) and is greeted.
 */
export default async function ManagePage({ searchParams }: { searchParams: Promise<{ welcome?: string | string[] }> }) {
  // Layouts and pages render in parallel, so the page guards itself too.
  const staff = await requireStaff('manage.view', '/manage');
  const { tenantId } = staff.current;
  const canSetUp = can(staff.current.role, 'property.manage');
  const [t, zone, { facilities, rooms, members, apiKeys }, checklist, { welcome }] = await Promise.all([
    getT(),
    tenantTimeZone({ tenantId }),
    tenantOverview({ tenantId, userId: staff.user.id }),
    canSetUp ? setupChecklist({ tenantId }) : null,
    searchParams,
  ]);
  const figures = await overviewFigures({ tenantId, timeZone: zone });
  const role = staff.current.role;
  const links = {
    desk: can(role, 'desk.view'),
    locks: can(role, 'locks.manage'),
    incidents: can(role, 'incidents.view'),
    webhooks: can(role, 'webhooks.view'),
    mailbox: can(role, 'mailbox.view'),
  };

  const standin = paymentStandinUrl();
  const canManageKeys = can(staff.current.role, 'api_keys.manage');
  const canManageSecrets = can(staff.current.role, 'secrets.manage');

  return (
    <>
      <ManageNav staff={staff} current="overview" />
      <PageHeader title={t('manage.title')} lead={t('manage.summary', { tenant: staff.current.tenantName })}>
        <TimesIn zone={zone} />
      </PageHeader>

      {welcome === '1' && (
        <Notice tone="success" data-testid="sign-up-welcome">
          {t('manage.setup.welcome', { tenant: staff.current.tenantName })}
        </Notice>
      )}
      {checklist && !checklist.allDone && <SetupChecklist checklist={checklist} />}

      {standin ? (
        <p className="muted" data-testid="payment-standin">
          {t('manage.paymentStandin')}{' '}
          <a href={standin} target="_blank" rel="noreferrer">
            {t('manage.paymentStandinOpen')}
          </a>
        </p>
      ) : null}
      <OverviewTiles figures={figures} links={links} />
      <OverviewCharts figures={figures} zone={zone} />

      <ListSection
        headingId="facilities-title"
        title={t('manage.facilities.title')}
        empty={facilities.length === 0 ? t('manage.facilities.empty') : null}
        action={
          can(staff.current.role, 'property.manage') ? (
            <Link
              href={facilities.length === 0 ? '/manage/facilities/new' : '/manage/facilities'}
              data-testid="manage-facilities-link"
            >
              {facilities.length === 0 ? t('facilities.addFirst') : t('facilities.nav')}
            </Link>
          ) : null
        }
      >
        <thead>
          <tr>
            <th scope="col">{t('manage.facilities.col.name')}</th>
            <th scope="col">{t('manage.facilities.col.timeZone')}</th>
            <th scope="col">{t('manage.facilities.col.rooms')}</th>
          </tr>
        </thead>
        <tbody>
          {facilities.map((f) => (
            <tr key={f.id}>
              <th scope="row">{f.name}</th>
              <td>{f.timeZone}</td>
              <td>{f._count.rooms}</td>
            </tr>
          ))}
        </tbody>
      </ListSection>

      <ListSection
        headingId="rooms-title"
        title={t('manage.rooms.title')}
        empty={rooms.length === 0 ? t('manage.rooms.empty') : null}
      >
        <thead>
          <tr>
            <th scope="col">{t('manage.rooms.col.label')}</th>
            <th scope="col">{t('manage.rooms.col.facility')}</th>
            <th scope="col">{t('manage.rooms.col.lockDevice')}</th>
          </tr>
        </thead>
        <tbody>
          {rooms.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.label}</th>
              <td>{r.facility.name}</td>
              <td>
                {r.roomLocks.length > 0 ? (
                  r.roomLocks.map(({ lock }) => (
                    <code key={lock.deviceId} title={lock.name}>
                      {lock.deviceId}{' '}
                    </code>
                  ))
                ) : (
                  <span className="muted">{t('manage.rooms.noLockDevice')}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ListSection>

      <ListSection
        headingId="staff-title"
        title={t('manage.staff.title')}
        empty={members.length === 0 ? t('manage.staff.empty') : null}
      >
        <thead>
          <tr>
            <th scope="col">{t('manage.staff.col.name')}</th>
            <th scope="col">{t('manage.staff.col.email')}</th>
            <th scope="col">{t('manage.staff.col.role')}</th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.user.id}>
              <th scope="row">{m.user.name || <span className="muted">{t('manage.staff.noName')}</span>}</th>
              <td>{m.user.email}</td>
              <td>{t(`role.${m.role}`)}</td>
            </tr>
          ))}
        </tbody>
      </ListSection>

      <ListSection
        headingId="api-keys-title"
        title={t('manage.apiKeys.title')}
        empty={apiKeys.length === 0 ? t('manage.apiKeys.empty') : null}
        action={
          canManageKeys ? (
            <Link href="/manage/api-keys" data-testid="manage-api-keys-link">
              {t('manage.apiKeys.manageLink')}
            </Link>
          ) : null
        }
      >
        <thead>
          <tr>
            <th scope="col">{t('manage.apiKeys.col.name')}</th>
            <th scope="col">{t('manage.apiKeys.col.prefix')}</th>
            <th scope="col">{t('manage.apiKeys.col.createdAt')}</th>
            <th scope="col">{t('manage.apiKeys.col.lastUsedAt')}</th>
            <th scope="col">{t('manage.apiKeys.col.status')}</th>
          </tr>
        </thead>
        <tbody>
          {apiKeys.map((k) => (
            <tr key={k.id}>
              <th scope="row">{k.name}</th>
              <td>
                <code>{k.prefix}</code>
              </td>
              <td>
                <When at={k.createdAt} zone={zone} />
              </td>
              <td>
                {k.lastUsedAt ? (
                  <When at={k.lastUsedAt} zone={zone} />
                ) : (
                  <span className="muted">{t('manage.apiKeys.neverUsed')}</span>
                )}
              </td>
              <td>
                {k.revokedAt ? (
                  <Badge tone="danger">{t('manage.apiKeys.revoked')}</Badge>
                ) : (
                  <Badge tone="success">{t('manage.apiKeys.active')}</Badge>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </ListSection>

      <section aria-labelledby="integrations-title" className="section">
        <h2 id="integrations-title">{t('manage.integrations.title')}</h2>
        <p className="muted">{t('manage.integrations.lead')}</p>
        <ul className="actions">
          {canManageKeys && (
            <li>
              <Link href="/manage/api-keys" className={buttonClassName({ variant: 'secondary' })}>
                {t('manage.nav.apiKeys')}
              </Link>
            </li>
          )}
          {canManageSecrets && (
            <li>
              <Link
                href="/manage/secrets"
                className={buttonClassName({ variant: 'secondary' })}
                data-testid="manage-secrets-link"
              >
                {t('manage.integrations.secrets')}
              </Link>
            </li>
          )}
          {can(staff.current.role, 'webhooks.view') && (
            <li>
              <Link
                href="/manage/webhooks"
                className={buttonClassName({ variant: 'secondary' })}
                data-testid="manage-webhooks-link"
              >
                {t('manage.nav.webhooks')}
              </Link>
            </li>
          )}
          {can(staff.current.role, 'incidents.view') && (
            <li>
              <Link
                href="/manage/incidents"
                className={buttonClassName({ variant: 'secondary' })}
                data-testid="manage-incidents-link"
              >
                {t('manage.nav.incidents')}
              </Link>
            </li>
          )}
          <li>
            <Link href="/docs/api" className={buttonClassName({ variant: 'secondary' })} data-testid="manage-docs-link">
              {t('manage.integrations.docs')}
            </Link>
          </li>
        </ul>
      </section>
    </>
  );
}
