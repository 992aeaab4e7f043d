import { withRequest } from '@/lib/api/http';
import { auditCsv } from '@/lib/audit/list-audit-events';
import { parseAuditQuery, requireAuditReader } from '../audit-request';

/** Every audit event of the current tenant matching the filters, as a CSV download streamed page by page. */
export const GET = withRequest(async ({ request, log }) => {
  const staff = await requireAuditReader();
  const { cursor: _cursor, limit: _limit, ...filters } = parseAuditQuery(request.url);
  const rows = auditCsv({ tenantId: staff.current.tenantId, ...filters });
  const encoder = new TextEncoder();
  // The header and the first page are read before answering, so a failing query is a proper 500.
  const head: string[] = [];
  for (let i = 0; i < 2; i++) {
    const next = await rows.next();
    if (!next.done) head.push(next.value);
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(head.join('')));
    },
    async pull(controller) {
      try {
        const next = await rows.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        // Headers are gone already: cut the download short rather than end it looking complete.
        log.error({ err: error }, 'audit export failed');
        controller.error(error);
      }
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const date = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="audit-${date}.csv"`,
      'cache-control': 'no-store',
    },
  });
});
