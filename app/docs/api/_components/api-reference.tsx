'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useRef, useState } from 'react';

type SwaggerUiBundle = (options: Record<string, unknown>) => unknown;
declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUiBundle;
  }
}

type Props = {
  /** The OpenAPI document /api/v1/openapi.json serves, built on the server. */
  openapi: Record<string, unknown>;
  /** Where this server serves Swagger UI's prebuilt script and styles (app/docs/api/assets/). */
  assets: { script: string; style: string };
};

/** Loads Swagger UI's prebuilt script once per page (it is not part of the app's bundle: the build never compiles it). */
function loadScript(src: string): Promise<void> {
  const existing = document.querySelector<HTMLScriptElement>(`script[data-swagger-ui]`);
  if (existing && window.SwaggerUIBundle) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = existing ?? document.createElement('script');
    script.src = src;
    script.async = true;
    script.dataset.swaggerUi = '';
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => reject(new Error('Swagger UI did not load')), { once: true });
    if (!existing) document.head.appendChild(script);
  });
}

/**
 * The interactive API reference: operations, schemas, request examples and "Try it out", rendered by Swagger UI
 * from the OpenAPI document, with nothing fetched from elsewhere (no validator badge, no web fonts). Its requests
 * go to the document's relative server (/api/v1) on the address this page is on.
 */
export function ApiReference({ openapi, assets }: Props) {
  const t = useTranslations('docs.api');
  const target = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');

  useEffect(() => {
    let cancelled = false;
    loadScript(assets.script)
      .then(() => {
        if (cancelled || !target.current || !window.SwaggerUIBundle) return;
        window.SwaggerUIBundle({
          spec: openapi,
          domNode: target.current,
          validatorUrl: null,
          deepLinking: true,
          docExpansion: 'list',
          defaultModelsExpandDepth: 0,
          displayRequestDuration: true,
          tryItOutEnabled: false,
        });
        setState('ready');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
    };
  }, [openapi, assets.script]);

  return (
    <div className="api-reference" data-testid="api-reference" aria-busy={state === 'loading'}>
      <link rel="stylesheet" href={assets.style} />
      {/* What a browser without JavaScript shows instead of the viewer. */}
      <noscript>{t('noScript')}</noscript>
      {state === 'loading' ? <p className="muted">{t('loading')}</p> : null}
      {state === 'failed' ? <p role="alert">{t('failed')}</p> : null}
      <div ref={target} />
    </div>
  );
}
