import { Notice } from '@/components/ui/notice';
import { Table } from '@/components/ui/table';
import type { Metadata } from 'next';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import Link from 'next/link';
import { z } from 'zod';
import { listBookingGroups, type BookingGroupSummary } from '@/lib/bookings/list-booking-groups';
import type { Locale, Translate } from '@/lib/i18n/locale';
import { formatMoney } from '@/lib/i18n/money';
import { paymentsConfigured } from '@/lib/payments/stripe-client';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { Span, TimesIn, When } from '@/components/time';
import { getLocale, getT } from '@/app/_server/i18n';
import { requireStaff } from '@/app/_server/staff';
import { buttonClassName } from '@/components/ui/button';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('bookings.title') };
}

const PAYMENT_BADGE = {
  paid: 'success',
  unpaid: 'warning',
  refunded: 'info',
  cancelled: 'danger',
} as const satisfies Record<string, BadgeTone>;

const ZCreatedSchema = z.uuid();

/** A group's rooms by stay, then by label as people read them (101 before 1001). */
function byStayThenRoom(reservations: BookingGroupSummary['reservations']): BookingGroupSummary['reservations'] {
  return [...reservations].sort(
    (a, b) =>
      a.startsAt.getTime() - b.startsAt.getTime() ||
      a.roomLabel.localeCompare(b.roomLabel, undefined, { numeric: true }),
  );
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The tenant's booking groups, newest first: guest, rooms and dates in facility time, payment state and amount. */
export default async function BookingsPage({ searchParams }: Props) {
  const staff = await requireStaff('desk.view', '/desk/bookings');
  const [t, locale, query] = await Promise.all([getT(), getLocale(), searchParams]);
  const [groups, zone] = await Promise.all([
    listBookingGroups({ tenantId: staff.current.tenantId }),
    tenantTimeZone({ tenantId: staff.current.tenantId }),
  ]);
  const createdId = ZCreatedSchema.safeParse(query.created);
  const created = createdId.success ? groups.find((g) => g.id === createdId.data) : undefined;

  return (
    <>
      <header className="page__header page__header--split">
        <div>
          <h1>{t('bookings.title')}</h1>
          <p className="page__lead">{t('bookings.summary', { tenant: staff.current.tenantName })}</p>
          <TimesIn zone={zone} />
        </div>
        <Link href="/desk/bookings/new" className={buttonClassName({ variant: 'primary' })}>
          {t('bookings.new')}
        </Link>
      </header>

      {created && <CreatedBanner group={created} t={t} />}

      {!paymentsConfigured() && (
        <Notice tone="warning" announce={false} data-testid="payments-off">
          {t('bookings.paymentsOff')}
        </Notice>
      )}

      {groups.length === 0 ? (
        <p className="empty-state">{t('bookings.empty')}</p>
      ) : (
        <Table region={{ label: t('bookings.title') }} data-testid="bookings-table">
          <thead>
            <tr>
              <th scope="col">{t('bookings.col.created')}</th>
              <th scope="col">{t('bookings.col.guest')}</th>
              <th scope="col">{t('bookings.col.rooms')}</th>
              <th scope="col">{t('bookings.col.payment')}</th>
              <th scope="col">{t('bookings.col.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((g) => (
              <GroupRow key={g.id} group={g} zone={zone} t={t} locale={locale} />
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

type GroupRowProps = { group: BookingGroupSummary; zone: string; t: Translate; locale: Locale };

function GroupRow({ group, zone, t, locale }: GroupRowProps) {
  // A group's rooms are normally in one facility: its zone is the one the desk thinks in.
  const timeZone = group.reservations[0]?.timeZone ?? zone;
  return (
    <tr data-booking-group-id={group.id}>
      <td>
        <When at={group.createdAt} zone={timeZone} />
      </td>
      <th scope="row">
        {group.guestName !== null ? group.guestName : <span className="tombstone">{t('guest.deletedAccount')}</span>}
      </th>
      <td>
        <ul className="stay-list">
          {byStayThenRoom(group.reservations).map((r) => (
            <li key={r.id}>
              <Link href={`/desk/reservations/${r.id}`} className="stay-list__room">
                {r.roomLabel}
              </Link>{' '}
              <span className={r.status === 'cancelled' ? 'muted stay-list__cancelled' : undefined}>
                <Span from={r.startsAt} to={r.endsAt} zone={r.timeZone} />
              </span>
            </li>
          ))}
        </ul>
      </td>
      <td>
        <Badge tone={PAYMENT_BADGE[group.status]}>{t(`bookings.payment.${group.status}`)}</Badge>
      </td>
      <td>
        {group.amountCents !== null && group.currency ? (
          formatMoney(locale, group.amountCents, group.currency)
        ) : (
          <span className="muted">{t('bookings.noAmount')}</span>
        )}
      </td>
    </tr>
  );
}

/** After a booking: what was booked, with a link to each reservation (its guest link lives there). */
function CreatedBanner({ group, t }: { group: BookingGroupSummary; t: Translate }) {
  const guest = group.guestName ?? t('guest.deletedAccount');
  const count = group.reservations.length;
  return (
    <div className="result-panel result-panel--success result-slot" role="status" data-testid="booking-created">
      <div className="result-panel__body">
        <p className="result-panel__title">{t('bookings.created.title')}</p>
        <p>{count === 1 ? t('bookings.created.one', { guest }) : t('bookings.created.many', { guest, count })}</p>
        <p>{t('bookings.created.links')}</p>
        <ul className="actions">
          {byStayThenRoom(group.reservations).map((r) => (
            <li key={r.id}>
              <Link
                href={`/desk/reservations/${r.id}`}
                className={buttonClassName({ variant: 'secondary', size: 'compact' })}
              >
                {t('bookings.roomLink', { room: r.roomLabel })}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
