import { cell } from '@/components/ui/table';
import type { Metadata } from 'next';
import Link from 'next/link';
import { CreateApiKeyForm } from '@/app/manage/_components/api-key-create';
import { RevokeApiKeyButton } from '@/app/manage/_components/api-key-revoke';
import { ListSection, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { listApiKeys } from '@/lib/auth/list-api-keys';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { Badge } from '@/components/ui/badge';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('apiKeys.title') };
}

/** The tenant's API keys: create one (its secret shown once), revoke one; secrets are never read. */
export default async function ApiKeysPage() {
  const staff = await requireStaff('api_keys.manage', '/manage/api-keys');
  const { tenantId } = staff.current;
  const [t, zone, keys] = await Promise.all([getT(), tenantTimeZone({ tenantId }), listApiKeys({ tenantId })]);

  return (
    <>
      <ManageNav staff={staff} current="api-keys" />
      <PageHeader title={t('apiKeys.title')} lead={t('apiKeys.lead', { tenant: staff.current.tenantName })}>
        <p>
          <Link href="/docs/api">{t('apiKeys.docsLink')}</Link>
        </p>
        <TimesIn zone={zone} />
      </PageHeader>

      <ClientMessages only={['apiKeys', 'copy']}>
        <CreateApiKeyForm />

        <ListSection
          headingId="api-keys-list-title"
          title={t('apiKeys.list.title')}
          empty={keys.length === 0 ? t('apiKeys.list.empty') : null}
          emptyTestId="api-keys-empty"
          tableTestId="api-keys-table"
        >
          <thead>
            <tr>
              <th scope="col">{t('manage.apiKeys.col.name')}</th>
              <th scope="col">{t('manage.apiKeys.col.prefix')}</th>
              <th scope="col">{t('manage.apiKeys.col.createdAt')}</th>
              <th scope="col">{t('manage.apiKeys.col.lastUsedAt')}</th>
              <th scope="col">{t('manage.apiKeys.col.status')}</th>
              <th scope="col">{t('apiKeys.col.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr
                key={k.id}
                data-testid="api-key-row"
                data-api-key-id={k.id}
                data-status={k.revokedAt ? 'revoked' : 'active'}
              >
                <th scope="row" className="wrap-anywhere">
                  {k.name}
                </th>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{<When at={k.createdAt} zone={zone} />}</td>
                <td>
                  {k.lastUsedAt ? (
                    <When at={k.lastUsedAt} zone={zone} />
                  ) : (
                    <span className="muted">{t('manage.apiKeys.neverUsed')}</span>
                  )}
                </td>
                <td>
                  {k.revokedAt ? (
                    <>
                      <Badge tone="danger">{t('manage.apiKeys.revoked')}</Badge>
                      <span className="facts__sub">
                        <When at={k.revokedAt} zone={zone} />
                      </span>
                    </>
                  ) : (
                    <Badge tone="success">{t('manage.apiKeys.active')}</Badge>
                  )}
                </td>
                <td className={cell.wrap}>
                  <RevokeApiKeyButton apiKeyId={k.id} live={!k.revokedAt} name={k.name} />
                </td>
              </tr>
            ))}
          </tbody>
        </ListSection>
      </ClientMessages>
    </>
  );
}
