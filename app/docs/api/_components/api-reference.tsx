'use client';

import { useTranslations } from 'next-intl';
import dynamic from 'next/dynamic';

// Scalar (a Vue app: some 2.7 MB of script and 0.3 MB of CSS on first view) loads in the browser, on this page
// only: no other route's bundle includes it.
const ScalarReference = dynamic(() => import('./scalar-reference'), {
  ssr: false,
  loading: () => null,
});

type Props = {
  /** The OpenAPI document /api/v1/openapi.json serves, built on the server. */
  openapi: Record<string, unknown>;
};

/** The interactive API reference: operations, schemas and request examples, rendered from the OpenAPI document. */
export function ApiReference({ openapi }: Props) {
  const t = useTranslations('docs.api');
  return (
    <div className="api-reference" data-testid="api-reference">
      {/* What a browser without JavaScript shows instead of the viewer. */}
      <noscript>{t('noScript')}</noscript>
      <ScalarReference openapi={openapi} />
    </div>
  );
}
