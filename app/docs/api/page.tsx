import { cell, Table } from '@/components/ui/table';
import type { Metadata } from 'next';
import Link from 'next/link';
import { z } from 'zod';
import { SiteHeader } from '@/components/site-header';
import { openApiDocument } from '@/lib/api/openapi';
import { getT } from '../../_server/i18n';
import { getStaff } from '../../_server/staff';

export const dynamic = 'force-dynamic';

// The parts of our own OpenAPI document this page shows; anything else in it is ignored.
const ZJsonSchema = z.record(z.string(), z.unknown());
const ZContentSchema = z.object({ 'application/json': z.object({ schema: ZJsonSchema }) }).partial();
const ZOperationSchema = z.object({
  summary: z.string().default(''),
  operationId: z.string(),
  parameters: z
    .array(
      z.object({
        name: z.string(),
        in: z.string(),
        required: z.boolean().default(false),
        schema: ZJsonSchema.optional(),
      }),
    )
    .default([]),
  requestBody: z.object({ content: ZContentSchema }).optional(),
  responses: z.record(
    z.string(),
    z.object({ description: z.string().default(''), content: ZContentSchema.optional() }),
  ),
});
const ZDocumentSchema = z.object({
  info: z.object({ title: z.string(), version: z.string() }),
  servers: z.array(z.object({ url: z.string() })).default([]),
  components: z.object({ schemas: z.record(z.string(), ZJsonSchema).default({}) }).optional(),
  paths: z.record(z.string(), z.record(z.string(), ZOperationSchema)),
});

const METHOD_BADGE: Record<string, string> = { get: 'method--get', post: 'method--post', delete: 'method--delete' };

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A short type for a parameter's schema: `string (uuid)`, `integer`, `"held" | "confirmed"`. */
function typeOf(schema: Record<string, unknown> | undefined): string {
  if (!schema) return '';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  const type = typeof schema.type === 'string' ? schema.type : 'any';
  return typeof schema.format === 'string' ? `${type} (${schema.format})` : type;
}

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('docs.api.title') };
}

/** The human API reference, rendered from the same OpenAPI document /api/v1/openapi.json serves. Public. */
export default async function ApiDocsPage() {
  const [t, staff] = await Promise.all([getT(), getStaff()]);
  const doc = ZDocumentSchema.parse(openApiDocument(process.env.APP_URL ?? 'http://localhost:3000'));
  const baseUrl = doc.servers[0]?.url ?? '/api/v1';
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op, anchor: `op-${op.operationId}` })),
  );
  const errorSchema = doc.components?.schemas.Error;

  return (
    <>
      <SiteHeader staff={staff} />
      <main id="main" tabIndex={-1} className="page">
        <header className="page__header">
          <h1>{t('docs.api.title')}</h1>
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
              <dd>{doc.info.version}</dd>
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
        </header>

        <nav aria-labelledby="docs-toc-title" className="card docs-toc">
          <h2 id="docs-toc-title">{t('docs.api.toc')}</h2>
          <ol className="docs-toc__list">
            <li>
              <a href="#authentication">{t('docs.api.auth.title')}</a>
            </li>
            <li>
              <a href="#errors">{t('docs.api.errors.title')}</a>
            </li>
            <li>
              <a href="#endpoints">{t('docs.api.endpoints')}</a>
              <ol className="docs-toc__ops">
                {operations.map(({ path, method, anchor }) => (
                  <li key={anchor}>
                    <a href={`#${anchor}`}>
                      <span className={`method ${METHOD_BADGE[method] ?? ''}`}>{method.toUpperCase()}</span>{' '}
                      <code>{path}</code>
                    </a>
                  </li>
                ))}
              </ol>
            </li>
          </ol>
        </nav>

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
            <code>{json({ error: { code: 'not_found', message: 'No such reservation.' } })}</code>
          </pre>
          <p>{t('docs.api.rateLimit')}</p>
          {errorSchema && (
            <details className="docs-details">
              <summary>{t('docs.api.errors.schema')}</summary>
              <pre className="code-block">
                <code>{json(errorSchema)}</code>
              </pre>
            </details>
          )}
        </section>

        <section id="endpoints" aria-labelledby="endpoints-title" className="section">
          <h2 id="endpoints-title">{t('docs.api.endpoints')}</h2>
          {operations.map(({ path, method, op, anchor }) => {
            const [successStatus, success] =
              Object.entries(op.responses).find(([status]) => status.startsWith('2')) ?? [];
            const errors = Object.entries(op.responses).filter(([status]) => !status.startsWith('2'));
            const bodySchema = op.requestBody?.content['application/json']?.schema;
            const successSchema = success?.content?.['application/json']?.schema;
            return (
              <article
                key={anchor}
                id={anchor}
                aria-labelledby={`${anchor}-title`}
                className="card api-op"
                data-testid="api-operation"
              >
                <h3 id={`${anchor}-title`} className="api-op__title">
                  <span className={`method ${METHOD_BADGE[method] ?? ''}`}>{method.toUpperCase()}</span>
                  <code className="api-op__path">{path}</code>
                </h3>
                {op.summary && <p>{op.summary}</p>}

                {op.parameters.length > 0 && (
                  <>
                    <h4>{t('docs.api.parameters')}</h4>
                    <Table region={{ label: `${t('docs.api.parameters')}: ${method.toUpperCase()} ${path}` }}>
                      <thead>
                        <tr>
                          <th scope="col">{t('docs.api.param.name')}</th>
                          <th scope="col">{t('docs.api.param.in')}</th>
                          <th scope="col">{t('docs.api.param.type')}</th>
                          <th scope="col">{t('docs.api.param.required')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {op.parameters.map((p) => (
                          <tr key={`${p.in}-${p.name}`}>
                            <th scope="row">
                              <code>{p.name}</code>
                            </th>
                            <td>
                              {p.in === 'path'
                                ? t('docs.api.param.inPath')
                                : p.in === 'query'
                                  ? t('docs.api.param.inQuery')
                                  : p.in}
                            </td>
                            <td className={cell.wrap}>
                              <code>{typeOf(p.schema)}</code>
                            </td>
                            <td>{p.required ? t('docs.api.param.yes') : t('docs.api.param.no')}</td>
                          </tr>
                        ))}
                      </tbody>
                    </Table>
                  </>
                )}

                {bodySchema && (
                  <>
                    <h4>{t('docs.api.requestBody')}</h4>
                    <pre className="code-block">
                      <code>{json(bodySchema)}</code>
                    </pre>
                  </>
                )}

                {successStatus && (
                  <>
                    <h4>{t('docs.api.response', { status: successStatus })}</h4>
                    {success?.description && <p className="muted">{success.description}</p>}
                    {successSchema ? (
                      <pre className="code-block">
                        <code>{json(successSchema)}</code>
                      </pre>
                    ) : (
                      <p className="muted">{t('docs.api.noContent')}</p>
                    )}
                  </>
                )}

                {errors.length > 0 && (
                  <>
                    <h4>{t('docs.api.errorStatuses')}</h4>
                    <ul className="api-op__errors">
                      {errors.map(([status, response]) => (
                        <li key={status}>
                          <code>{status}</code> {response.description}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </article>
            );
          })}
        </section>
      </main>
    </>
  );
}
