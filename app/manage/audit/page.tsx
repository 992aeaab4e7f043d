import type { Metadata } from 'next';
import { AuditLog, type AuditLogLabels } from '@/app/manage/_components/audit-log';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { QueryProvider } from '@/components/query-provider';
import { AUDIT_ACTIONS, AUDIT_REASON_CODES, auditDayRange, parseAuditUrlFilters } from '@/lib/audit/audit-filters';
import { listAuditEvents } from '@/lib/audit/list-audit-events';
import { listFacilities } from '@/lib/rooms/list-facilities';
import { listRooms } from '@/lib/rooms/list-rooms';
import { getLocale, getT } from '../../_server/i18n';
import { requireStaff } from '../../_server/staff';
import { AUDIT_PAGE_SIZE } from './audit-request';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const ACTOR_TYPES = ['user', 'api_key', 'guest', 'system', 'provider'] as const;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('audit.title') };
}

/**
 * The tenant's audit log, newest first. The filters live in the URL: the first page is read here for
 * them, later pages and filter changes come from `/manage/audit/events` on the client.
 */
export default async function AuditPage({ searchParams }: Props) {
  const staff = await requireStaff('audit.view', '/manage/audit');
  const [t, locale, query] = await Promise.all([getT(), getLocale(), searchParams]);
  const { tenantId } = staff.current;
  const filters = parseAuditUrlFilters(query);

  // Dates are days in the facility's zone; a tenant has one facility as a rule, else the first by name.
  const facilities = await listFacilities({ tenantId });
  const timeZone = facilities[0]?.timeZone ?? 'UTC';
  const [rooms, firstPage] = await Promise.all([
    listRooms({ tenantId }),
    listAuditEvents({
      tenantId,
      limit: AUDIT_PAGE_SIZE,
      ...(filters.action ? { action: filters.action } : {}),
      ...(filters.actor ? { actor: filters.actor } : {}),
      ...(filters.subjectId ? { subjectId: filters.subjectId } : {}),
      ...(filters.roomId ? { roomId: filters.roomId } : {}),
      ...auditDayRange(filters, timeZone),
    }),
  ]);

  const labels: AuditLogLabels = {
    filtersTitle: t('audit.filters.title'),
    action: t('audit.filters.action'),
    anyAction: t('audit.filters.anyAction'),
    actor: t('audit.filters.actor'),
    actorHint: t('audit.filters.actorHint'),
    subjectId: t('audit.filters.subjectId'),
    subjectIdHint: t('audit.filters.subjectIdHint'),
    subjectIdInvalid: t('audit.filters.subjectIdInvalid'),
    room: t('audit.filters.room'),
    anyRoom: t('audit.filters.anyRoom'),
    from: t('audit.filters.from'),
    to: t('audit.filters.to'),
    datesHint: t('audit.filters.datesHint', { zone: timeZone }),
    reset: t('audit.filters.reset'),
    exportCsv: t('audit.export'),
    exportHint: t('audit.exportHint'),
    when: t('audit.col.when'),
    who: t('audit.col.who'),
    what: t('audit.col.what'),
    why: t('audit.col.why'),
    subject: t('audit.col.subject'),
    loading: t('audit.loading'),
    empty: t('audit.empty'),
    error: t('audit.error'),
    retry: t('audit.retry'),
    loadMore: t('audit.loadMore'),
    loadingMore: t('audit.loadingMore'),
    loadMoreError: t('audit.loadMoreError'),
    end: t('audit.end'),
    shown: t('audit.shown'),
    shownOne: t('audit.shownOne'),
    noReason: t('audit.noReason'),
    openReservation: t('audit.openReservation'),
    subjectTypes: { access_key: t('audit.subject.access_key'), reservation: t('audit.subject.reservation') },
    actorTypes: Object.fromEntries(ACTOR_TYPES.map((type) => [type, t(`audit.actorType.${type}`)])),
    actions: Object.fromEntries(AUDIT_ACTIONS.map((action) => [action, t(`audit.action.${action}`)])),
    reasons: Object.fromEntries(AUDIT_REASON_CODES.map((code) => [code, t(`audit.reason.${code}`)])),
  };

  return (
    <>
      <ManageNav staff={staff} current="audit" />
      <header className="page__header">
        <h1>{t('audit.title')}</h1>
        <p className="page__lead">{t('audit.lead', { tenant: staff.current.tenantName, zone: timeZone })}</p>
      </header>
      <QueryProvider>
        <AuditLog
          initialFilters={filters}
          initialPage={firstPage}
          rooms={rooms.map((r) => ({ id: r.id, label: r.label }))}
          timeZone={timeZone}
          locale={locale}
          pageSize={AUDIT_PAGE_SIZE}
          labels={labels}
        />
      </QueryProvider>
    </>
  );
}
