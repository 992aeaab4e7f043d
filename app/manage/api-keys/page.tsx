import { cell, Table } from '@/components/ui/table';
import type { Metadata } from 'next';
import Link from 'next/link';
import { CreateApiKeyForm } from '@/app/manage/_components/api-key-create';
import { RevokeApiKeyButton } from '@/app/manage/_components/api-key-revoke';
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
      <header className="page__header">
        <h1>{t('apiKeys.title')}</h1>
        <p className="page__lead">{t('apiKeys.lead', { tenant: staff.current.tenantName })}</p>
        <p>
          <Link href="/docs/api">{t('apiKeys.docsLink')}</Link>
        </p>
        <TimesIn zone={zone} />
      </header>

      <ClientMessages only={['apiKeys', 'copy']}>
        <CreateApiKeyForm />

        <section aria-labelledby="api-keys-list-title" className="section">
          <h2 id="api-keys-list-title">{t('apiKeys.list.title')}</h2>
          {keys.length === 0 ? (
            <p className="empty-state" data-testid="api-keys-empty">
              {t('apiKeys.list.empty')}
            </p>
          ) : (
            <Table region={{ labelledBy: 'api-keys-list-title' }} data-testid="api-keys-table">
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
            </Table>
          )}
        </section>
      </ClientMessages>
    </>
  );
}
