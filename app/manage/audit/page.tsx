import type { Metadata } from 'next';
import { AuditLog } from '@/app/manage/_components/audit-log';
import { PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { QueryProvider } from '@/components/query-provider';
import { TimesIn } from '@/components/time';
import { auditActionQuery, auditDayRange, parseAuditUrlFilters } from '@/lib/audit/audit-filters';
import { listReadableAuditEvents } from '@/lib/audit/readable-audit-events';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { listRooms } from '@/lib/rooms/list-rooms';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { AUDIT_PAGE_SIZE } from './audit-request';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('audit.title') };
}

/**
 * The tenant's audit log, newest first. The filters live in the URL: the first page is read here for
 * them, later pages and filter changes come from `/manage/audit/events` on the client.
 */
export default async function AuditPage({ searchParams }: Props) {
  const staff = await requireStaff('audit.view', '/manage/audit');
  const { tenantId } = staff.current;
  // The date filters are days in the facility's zone; its events are shown in that zone too.
  const [t, query, timeZone] = await Promise.all([getT(), searchParams, tenantTimeZone({ tenantId })]);
  const filters = parseAuditUrlFilters(query);
  const [rooms, firstPage] = await Promise.all([
    listRooms({ tenantId }),
    listReadableAuditEvents({
      tenantId,
      limit: AUDIT_PAGE_SIZE,
      ...auditActionQuery(filters.action),
      ...(filters.actor ? { actor: filters.actor } : {}),
      ...(filters.subjectId ? { subjectId: filters.subjectId } : {}),
      ...(filters.roomId ? { roomId: filters.roomId } : {}),
      ...auditDayRange(filters, timeZone),
    }),
  ]);

  return (
    <>
      <ManageNav staff={staff} current="audit" />
      <PageHeader title={t('audit.title')} lead={t('audit.lead', { tenant: staff.current.tenantName })}>
        <TimesIn zone={timeZone} />
      </PageHeader>
      <ClientMessages only={['audit', 'records']}>
        <QueryProvider>
          <AuditLog
            initialFilters={filters}
            initialPage={firstPage}
            rooms={rooms.map((r) => ({ id: r.id, label: r.label }))}
            timeZone={timeZone}
            pageSize={AUDIT_PAGE_SIZE}
          />
        </QueryProvider>
      </ClientMessages>
    </>
  );
}
