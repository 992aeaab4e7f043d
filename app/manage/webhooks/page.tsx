import { Field, Input, Select } from '@/components/ui/field';
import { cell } from '@/components/ui/table';
import type { Metadata } from 'next';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import Link from 'next/link';
import { ListSection, PageHeader, Pager } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { WebhookReplayForm } from '@/app/manage/_components/webhook-replay';
import { can } from '@/lib/auth/permissions';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { isAppError } from '@/lib/errors';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { instantToZonedLocal, zonedDaysRange } from '@/lib/time/zoned-local';
import { listWebhookEvents } from '@/lib/webhooks/list-webhook-events';
import {
  isWebhookReasonCode,
  parseWebhookLogUrlFilters,
  WEBHOOK_PROVIDERS,
  WEBHOOK_STATUSES,
  webhookLogHref,
} from '@/lib/webhooks/webhook-log-filters';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { Button, buttonClassName } from '@/components/ui/button';

const PAGE_SIZE = 50;

/** The badge each outcome wears: the words always say it, the colour only reinforces. */
const STATUS_BADGE = {
  received: 'info',
  processed: 'success',
  ignored: 'neutral',
  rejected: 'warning',
  failed: 'danger',
  dead: 'danger',
} as const satisfies Record<string, BadgeTone>;

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('webhooks.title') };
}

/** The tenant's webhook log ("did the cancel arrive?"), filterable in the URL, and a replay of a window. */
export default async function WebhooksPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const staff = await requireStaff('webhooks.view', '/manage/webhooks');
  const { tenantId } = staff.current;
  const [t, timeZone, params] = await Promise.all([getT(), tenantTimeZone({ tenantId }), searchParams]);
  const filters = parseWebhookLogUrlFilters(params);
  const range = zonedDaysRange({ fromDay: filters.from, toDay: filters.to, timeZone });
  const query = {
    tenantId,
    limit: PAGE_SIZE,
    ...range,
    ...(filters.provider ? { provider: filters.provider } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.event ? { id: filters.event } : {}),
  };
  const page = await listWebhookEvents({ ...query, ...(filters.cursor ? { cursor: filters.cursor } : {}) }).catch(
    (error: unknown) => {
      // A stale or hand-edited cursor: show the newest page rather than an error.
      if (filters.cursor && isAppError(error) && error.code === 'invalid_request') return listWebhookEvents(query);
      throw error;
    },
  );
  const filtered = Boolean(filters.provider || filters.status || filters.from || filters.to || filters.event);
  const canReplay = can(staff.current.role, 'webhooks.replay');

  const now = new Date().getTime();
  const replayDefaults = {
    provider: filters.provider || 'calendly',
    from: instantToZonedLocal(new Date(now - 86_400_000), timeZone),
    // The end is exclusive: round up to the next minute so what arrived just now is included.
    to: instantToZonedLocal(new Date(Math.ceil((now + 1) / 60_000) * 60_000), timeZone),
  };
  const statusLabels = Object.fromEntries(WEBHOOK_STATUSES.map((s) => [s, t(`webhooks.status.${s}`)])) as Record<
    (typeof WEBHOOK_STATUSES)[number],
    string
  >;

  return (
    <>
      <ManageNav staff={staff} current="webhooks" />
      <PageHeader title={t('webhooks.title')} lead={t('webhooks.lead', { tenant: staff.current.tenantName })}>
        <TimesIn zone={timeZone} />
      </PageHeader>

      <section aria-labelledby="webhook-filters-title">
        <h2 id="webhook-filters-title" className="visually-hidden">
          {t('webhooks.filters.title')}
        </h2>
        <form
          method="get"
          action="/manage/webhooks"
          role="search"
          aria-labelledby="webhook-filters-title"
          className="card filter-bar"
          data-testid="webhook-filters"
        >
          <Field id="webhook-filter-provider" label={t('webhooks.filters.provider')}>
            {(control) => (
              <Select
                {...control}
                name="provider"
                defaultValue={filters.provider}
                data-testid="webhook-filter-provider"
              >
                <option value="">{t('webhooks.filters.anyProvider')}</option>
                {WEBHOOK_PROVIDERS.map((p) => (
                  <option key={p} value={p}>
                    {t(`webhooks.provider.${p}`)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field id="webhook-filter-status" label={t('webhooks.filters.status')}>
            {(control) => (
              <Select {...control} name="status" defaultValue={filters.status} data-testid="webhook-filter-status">
                <option value="">{t('webhooks.filters.anyStatus')}</option>
                {WEBHOOK_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {statusLabels[s]}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field id="webhook-filter-from" label={t('webhooks.filters.from')}>
            {(control) => (
              <Input
                {...control}
                name="from"
                type="date"
                defaultValue={filters.from}
                data-testid="webhook-filter-from"
              />
            )}
          </Field>
          <Field id="webhook-filter-to" label={t('webhooks.filters.to')}>
            {(control) => (
              <Input {...control} name="to" type="date" defaultValue={filters.to} data-testid="webhook-filter-to" />
            )}
          </Field>
          <div className="filter-bar__actions">
            <Button variant="primary" type="submit" data-testid="webhook-filter-apply">
              {t('webhooks.filters.apply')}
            </Button>
            {filtered && (
              <Link
                href="/manage/webhooks"
                className={buttonClassName({ variant: 'ghost' })}
                data-testid="webhook-filter-clear"
              >
                {t('webhooks.filters.clear')}
              </Link>
            )}
          </div>
        </form>
      </section>

      <ListSection
        headingId="webhook-events-title"
        title={t('webhooks.list.title')}
        empty={page.data.length === 0 ? (filtered ? t('webhooks.emptyFiltered') : t('webhooks.empty')) : null}
        emptyTestId="webhook-events-empty"
        tableTestId="webhook-events"
        after={
          <Pager
            label={t('webhooks.pagination.label')}
            links={[
              filters.cursor
                ? {
                    href: webhookLogHref({ ...filters, cursor: '' }),
                    testId: 'webhook-events-newest',
                    label: t('webhooks.pagination.newest'),
                  }
                : null,
              page.nextCursor
                ? {
                    href: webhookLogHref({ ...filters, cursor: page.nextCursor }),
                    testId: 'webhook-events-older',
                    label: t('webhooks.pagination.older'),
                  }
                : null,
            ]}
          />
        }
      >
        <thead>
          <tr>
            <th scope="col">{t('webhooks.col.receivedAt')}</th>
            <th scope="col">{t('webhooks.col.provider')}</th>
            <th scope="col">{t('webhooks.col.type')}</th>
            <th scope="col">{t('webhooks.col.status')}</th>
            <th scope="col">{t('webhooks.col.reason')}</th>
            <th scope="col" className={cell.numeric}>
              {t('webhooks.col.attempts')}
            </th>
          </tr>
        </thead>
        <tbody>
          {page.data.map((event) => (
            <tr
              key={event.id}
              data-testid="webhook-event-row"
              data-event-id={event.id}
              data-provider={event.provider}
              data-type={event.type}
              data-status={event.status}
              data-reason={event.reason ?? ''}
            >
              <th scope="row">
                <When at={event.receivedAt} zone={timeZone} />
              </th>
              <td>{t(`webhooks.provider.${event.provider}`)}</td>
              <td>
                <code className="mono" data-testid="webhook-event-type">
                  {event.type}
                </code>
              </td>
              <td>
                <Badge tone={STATUS_BADGE[event.status]} data-testid="webhook-event-status">
                  {statusLabels[event.status]}
                </Badge>
              </td>
              <td className={`${cell.wrap} webhook-reason`}>
                {event.reason ? (
                  <>
                    <code className="mono" data-testid="webhook-event-reason">
                      {event.reason}
                    </code>
                    {isWebhookReasonCode(event.reason) && (
                      <span className="webhook-reason__text">{t(`webhooks.reason.${event.reason}`)}</span>
                    )}
                  </>
                ) : (
                  <span className="muted">{t('webhooks.noReason')}</span>
                )}
              </td>
              <td className={cell.numeric}>{event.attempts}</td>
            </tr>
          ))}
        </tbody>
      </ListSection>

      {canReplay && (
        <section aria-labelledby="webhook-replay-title" className="section">
          <h2 id="webhook-replay-title">{t('webhooks.replay.title')}</h2>
          <div className="card">
            <p className="replay-lead">{t('webhooks.replay.lead')}</p>
            <ClientMessages only={['webhooks']}>
              <WebhookReplayForm defaults={replayDefaults} timeZone={timeZone} />
            </ClientMessages>
          </div>
        </section>
      )}
    </>
  );
}
