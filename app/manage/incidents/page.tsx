import { cell } from '@/components/ui/table';
import type { Metadata } from 'next';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import type { ReactNode } from 'react';
import { AcknowledgeDriftButton, ResolveIncidentButton } from '@/app/manage/_components/incident-resolve';
import { can } from '@/lib/auth/permissions';
import { ListSection, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { IncidentContextList } from '@/app/manage/_components/incident-context';
import { TimesIn, When } from '@/components/time';
import { listBillingFailures, listIncidents, type IncidentView } from '@/lib/incidents/list-incidents';
import type { MessageKey } from '@/lib/i18n/catalog';
import type { Translate } from '@/lib/i18n/locale';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

const SEVERITY_BADGE: Record<string, BadgeTone> = {
  info: 'info',
  warning: 'warning',
  critical: 'danger',
};
const SEVERITIES = ['info', 'warning', 'critical'] as const;
const KNOWN_KINDS = [
  'webhook_processing_failed',
  'slot_unavailable',
  'room_archived',
  'tenant_integrity',
  'tenant_mismatch',
  'vendor_program_failed',
  'vendor_remove_failed',
  'lock_program_failed',
  'lock_remove_failed',
  'room_without_lock',
  'payment_mismatch',
  'late_payment',
  'health_worker',
  'health_database',
  'health_lock_provider',
  'lock_drift',
  'lock_offline',
  'lock_missing',
  'lock_rewindow_failed',
  'lock_low_battery',
  'lock_tampered',
  'guest_code_problem',
] as const;
const KNOWN_BILLING_KINDS = ['invoice.payment_failed'] as const;

const isOneOf = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value);

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('incidents.title') };
}

/** Open incidents (with "Mark resolved"), the recently resolved ones, then billing failures. */
export default async function IncidentsPage() {
  const staff = await requireStaff('incidents.view', '/manage/incidents');
  const { tenantId } = staff.current;
  const acknowledgesDrift = can(staff.current.role, 'locks.manage');
  const [t, zone, incidents, billing] = await Promise.all([
    getT(),
    tenantTimeZone({ tenantId }),
    listIncidents({ tenantId }),
    listBillingFailures({ tenantId }),
  ]);

  return (
    <>
      <ManageNav staff={staff} current="incidents" />
      <PageHeader title={t('incidents.title')} lead={t('incidents.lead', { tenant: staff.current.tenantName })}>
        <TimesIn zone={zone} />
      </PageHeader>

      <ClientMessages only={['incidents']}>
        <ListSection
          testId="incidents-open"
          headingId="incidents-open-title"
          emptyTestId="incidents-open-empty"
          title={t('incidents.open.title')}
          empty={incidents.open.length === 0 ? t('incidents.open.empty') : null}
        >
          <IncidentHead t={t} last={t('incidents.col.actions')} />
          <tbody>
            {incidents.open.map((incident) => (
              <IncidentRow key={incident.id} incident={incident} t={t} zone={zone}>
                {acknowledgesDrift &&
                  incident.kind === 'lock_drift' &&
                  Number(incident.detail.unacknowledgedForeignCodes) > 0 && (
                    <AcknowledgeDriftButton incidentId={incident.id} summary={incident.summary} />
                  )}
                <ResolveIncidentButton incidentId={incident.id} summary={incident.summary} />
              </IncidentRow>
            ))}
          </tbody>
        </ListSection>
      </ClientMessages>

      <ListSection
        testId="incidents-resolved"
        headingId="incidents-resolved-title"
        emptyTestId="incidents-resolved-empty"
        title={t('incidents.resolved.title')}
        empty={incidents.resolved.length === 0 ? t('incidents.resolved.empty') : null}
      >
        <IncidentHead t={t} last={t('incidents.col.resolvedAt')} />
        <tbody>
          {incidents.resolved.map((incident) => (
            <IncidentRow key={incident.id} incident={incident} t={t} zone={zone}>
              {incident.resolvedAt && <When at={incident.resolvedAt} zone={zone} />}
            </IncidentRow>
          ))}
        </tbody>
      </ListSection>

      <ListSection
        testId="billing-failures"
        headingId="billing-failures-title"
        emptyTestId="billing-failures-empty"
        title={t('incidents.billing.title')}
        empty={billing.length === 0 ? t('incidents.billing.empty') : null}
      >
        <thead>
          <tr>
            <th scope="col">{t('incidents.billing.col.day')}</th>
            <th scope="col">{t('incidents.billing.col.kind')}</th>
            <th scope="col">{t('incidents.billing.col.invoice')}</th>
          </tr>
        </thead>
        <tbody>
          {billing.map((failure) => {
            const invoiceId = typeof failure.detail.invoiceId === 'string' ? failure.detail.invoiceId : null;
            return (
              <tr key={failure.id} data-testid="billing-failure-row">
                <th scope="row">
                  {/* A billing day is a calendar date, not an instant: shown as stored. */}
                  <When at={failure.day} zone="UTC" style="day" />
                </th>
                <td>
                  {isOneOf(KNOWN_BILLING_KINDS, failure.kind) ? t(`incidents.billing.kind.${failure.kind}`) : null}
                  <code className={isOneOf(KNOWN_BILLING_KINDS, failure.kind) ? 'incident-kind' : 'mono'}>
                    {failure.kind}
                  </code>
                </td>
                <td>
                  {invoiceId ? (
                    <code className="mono">{invoiceId}</code>
                  ) : (
                    <span className="muted">{t('incidents.billing.noInvoice')}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </ListSection>
    </>
  );
}

function IncidentHead({ t, last }: { t: Translate; last: string }) {
  return (
    <thead>
      <tr>
        <th scope="col">{t('incidents.col.severity')}</th>
        <th scope="col">{t('incidents.col.summary')}</th>
        <th scope="col" className={cell.numeric}>
          {t('incidents.col.occurrences')}
        </th>
        <th scope="col">{t('incidents.col.openedAt')}</th>
        <th scope="col">{t('incidents.col.updatedAt')}</th>
        <th scope="col">{last}</th>
      </tr>
    </thead>
  );
}

/** One incident: severity badge, summary with its kind (translated when known, the code always), counts and times. */
function IncidentRow({
  incident,
  t,
  zone,
  children,
}: {
  incident: IncidentView;
  t: Translate;
  zone: string;
  children: ReactNode;
}) {
  const severity = isOneOf(SEVERITIES, incident.severity)
    ? t(`incidents.severity.${incident.severity}`)
    : incident.severity;
  const kindLabel: MessageKey | null = isOneOf(KNOWN_KINDS, incident.kind)
    ? `incidents.kind.${incident.kind}`
    : incident.kind === 'booking_unmapped'
      ? 'records.incidentKind.booking_unmapped'
      : null;
  return (
    <tr
      data-testid="incident-row"
      data-incident-id={incident.id}
      data-kind={incident.kind}
      data-severity={incident.severity}
    >
      <td>
        <Badge tone={SEVERITY_BADGE[incident.severity] ?? 'neutral'} data-testid="incident-severity">
          {severity}
        </Badge>
      </td>
      <th scope="row" className="incident-summary">
        {incident.summary}
        <span className="incident-kind">
          {kindLabel ? `${t(kindLabel)} · ` : ''}
          <code>{incident.kind}</code>
        </span>
        <IncidentContextList context={incident.context} />
      </th>
      <td className={cell.numeric}>{incident.occurrences}</td>
      <td>
        <When at={incident.openedAt} zone={zone} />
      </td>
      <td>
        <When at={incident.updatedAt} zone={zone} />
      </td>
      <td>{children}</td>
    </tr>
  );
}
