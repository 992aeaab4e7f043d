import { FieldHint } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import type { Metadata } from 'next';
import { CopyButton } from '@/app/manage/_components/copy-button';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { SecretForm } from '@/app/manage/_components/secret-form';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { listProviderSecrets, SECRET_PROVIDERS } from '@/lib/secrets/provider-secrets';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { Badge } from '@/components/ui/badge';

/** Providers that call us: the URL each must be given for this tenant. */
const WEBHOOK_PATHS = {
  calendly: 'calendly',
  cal: 'cal',
  acuity: 'acuity',
  seam: null,
  seam_webhook: 'seam',
  ttlock: null,
  lock_vendor: null,
} as const;

/** The public base URL the providers reach us at (as guest links use it). */
function appUrl(): string {
  return (process.env.APP_URL || `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('secrets.title') };
}

/** The tenant's provider secrets: which are set, key version and date — never a value — and a form to set each. */
export default async function SecretsPage() {
  const staff = await requireStaff('secrets.manage', '/manage/secrets');
  const { tenantId } = staff.current;
  const [t, zone, stored] = await Promise.all([
    getT(),
    tenantTimeZone({ tenantId }),
    listProviderSecrets({ tenantId }),
  ]);

  return (
    <>
      <ManageNav staff={staff} current="secrets" />
      <PageHeader title={t('secrets.title')} lead={t('secrets.lead', { tenant: staff.current.tenantName })}>
        <TimesIn zone={zone} />
        <Notice tone="info" announce={false} data-testid="secrets-encrypted-note">
          {t('secrets.encrypted')}
        </Notice>
      </PageHeader>

      <ClientMessages only={['secrets', 'copy']}>
        <ul className="secret-list">
          {SECRET_PROVIDERS.map((provider) => {
            const secret = stored.find((s) => s.provider === provider);
            const headingId = `secret-${provider}-title`;
            const webhookPath = WEBHOOK_PATHS[provider];
            const webhookUrl = webhookPath ? `${appUrl()}/api/webhooks/${webhookPath}/${tenantId}` : null;
            const urlId = `secret-${provider}-url`;
            return (
              <li key={provider}>
                <section
                  className="card secret-card"
                  aria-labelledby={headingId}
                  data-testid={`secret-card-${provider}`}
                >
                  <div className="secret-card__head">
                    <h2 id={headingId}>{t(`secrets.provider.${provider}`)}</h2>
                    {secret ? (
                      <Badge tone="success" data-testid={`secret-status-${provider}`} data-set="true">
                        {t('secrets.status.set')}
                      </Badge>
                    ) : (
                      <Badge data-testid={`secret-status-${provider}`} data-set="false">
                        {t('secrets.status.notSet')}
                      </Badge>
                    )}
                  </div>
                  {secret && (
                    <dl className="facts secret-card__facts">
                      <div>
                        <dt>{t('secrets.keyVersion')}</dt>
                        <dd data-testid={`secret-key-version-${provider}`}>{secret.keyVersion}</dd>
                      </div>
                      <div>
                        <dt>{t('secrets.rotatedAt')}</dt>
                        <dd>
                          <When at={secret.rotatedAt} zone={zone} />
                        </dd>
                      </div>
                    </dl>
                  )}
                  <SecretForm provider={provider} isSet={secret !== undefined} />
                  {webhookUrl && (
                    <div className="webhook-url">
                      <p className="webhook-url__label">{t('secrets.webhookUrl')}</p>
                      <div className="secret-panel__value">
                        <code id={urlId} className="webhook-url__code" data-testid={`webhook-url-${provider}`}>
                          {webhookUrl}
                        </code>
                        <CopyButton
                          text={webhookUrl}
                          targetId={urlId}
                          accessibleLabel={t('secrets.copyWebhookUrl', { provider: t(`secrets.provider.${provider}`) })}
                          testId={`webhook-url-copy-${provider}`}
                        />
                      </div>
                      <FieldHint>
                        {t('secrets.webhookUrlHint', { provider: t(`secrets.provider.${provider}`) })}
                      </FieldHint>
                    </div>
                  )}
                </section>
              </li>
            );
          })}
        </ul>
      </ClientMessages>
    </>
  );
}
