import type { Metadata } from 'next';
import Link from 'next/link';
import { ClientMessages } from '@/components/client-messages';
import { SiteHeader } from '@/components/site-header';
import { HEADER_ACTIONS } from '@/app/_server/header-actions';
import { openApiDocument } from '@/lib/api/openapi';
import { swaggerUiAssetUrls } from '@/lib/http/swagger-ui-assets';
import { getT } from '@/i18n/server';
import { getStaff } from '@/app/_server/staff';
import { ApiReference } from './_components/api-reference';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('docs.api.title') };
}

/** The human API reference, rendered from the same OpenAPI document /api/v1/openapi.json serves. Public. */
export default async function ApiDocsPage() {
  const [t, staff] = await Promise.all([getT(), getStaff()]);
  // The document's server is relative (/api/v1): "Test Request" calls the address this page is on.
  const openapi = openApiDocument();
  const { info } = openapi as { info: { version: string } };
  const baseUrl = `${(process.env.APP_URL ?? '').replace(/\/$/, '')}/api/v1`;

  return (
    <>
      <SiteHeader actions={HEADER_ACTIONS} staff={staff} />
      <main id="main" tabIndex={-1} className="page">
        <section aria-labelledby="api-docs-title" className="page__header">
          <h1 id="api-docs-title">{t('docs.api.title')}</h1>
          <p className="page__lead">{t('docs.api.lead')}</p>
          <dl className="facts">
            <div>
              <dt>{t('docs.api.baseUrl')}</dt>
              <dd>
                <code data-testid="api-base-url">{baseUrl}</code>
              </dd>
            </div>
            <div>
              <dt>{t('docs.api.version')}</dt>
              <dd>{info.version}</dd>
            </div>
            <div>
              <dt>{t('docs.api.openapi')}</dt>
              <dd>
                {/* A route handler, not a page: a plain link. */}
                <a href="/api/v1/openapi.json" data-testid="openapi-link">
                  /api/v1/openapi.json
                </a>
              </dd>
            </div>
          </dl>
        </section>

        <section id="authentication" aria-labelledby="authentication-title" className="section">
          <h2 id="authentication-title">{t('docs.api.auth.title')}</h2>
          <p>{t('docs.api.auth.header')}</p>
          <pre className="code-block">
            <code>Authorization: Bearer &lt;api key&gt;</code>
          </pre>
          <p>{t('docs.api.auth.tenant')}</p>
          <p>
            {t('docs.api.auth.keys')} <Link href="/manage/api-keys">{t('docs.api.auth.keysLink')}</Link>
          </p>
        </section>

        <section id="errors" aria-labelledby="errors-title" className="section">
          <h2 id="errors-title">{t('docs.api.errors.title')}</h2>
          <p>{t('docs.api.errors.body')}</p>
          <pre className="code-block">
            <code>{JSON.stringify({ error: { code: 'not_found', message: 'No such reservation.' } }, null, 2)}</code>
          </pre>
          <p>{t('docs.api.rateLimit')}</p>
        </section>

        <ClientMessages only={['docs']}>
          <ApiReference openapi={openapi} assets={swaggerUiAssetUrls()} />
        </ClientMessages>
      </main>
    </>
  );
}
