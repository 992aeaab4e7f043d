'use client';

import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';
import { useMemo } from 'react';

type Props = { openapi: Record<string, unknown> };

/**
 * Scalar's viewer, configured to run from this server alone: the document is passed in (no fetch),
 * Scalar's web fonts (fonts.scalar.com) are off — the page's own Inter is used — and so are its
 * telemetry, AI agent, MCP and hosted-client links. Requests from "Test request" go straight to our own /api/v1.
 */
export default function ScalarReference({ openapi }: Props) {
  const configuration = useMemo(
    () => ({
      content: openapi,
      withDefaultFonts: false,
      telemetry: false,
      // Its "Open API Client" link would hand our document's URL to client.scalar.com.
      hideClientButton: true,
      agent: { disabled: true },
      mcp: { disabled: true },
      hideDarkModeToggle: true,
      forceDarkModeState: 'light' as const,
      documentDownloadType: 'none' as const,
      showDeveloperTools: 'never' as const,
      operationTitleSource: 'summary' as const,
      defaultOpenAllTags: true,
    }),
    [openapi],
  );
  return <ApiReferenceReact configuration={configuration} />;
}
