import { Notice } from '@/components/ui/notice';
import { cell, Table } from '@/components/ui/table';
import type { Metadata } from 'next';
import { Badge } from '@/components/ui/badge';
import Link from 'next/link';
import { z } from 'zod';
import { DeskNav } from '@/app/desk/_components/desk-nav';
import { FocusOnMount } from '@/app/desk/_components/focus-on-mount';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import cards from '@/app/desk/_components/stay-cards.module.css';
import styles from './bookings.module.css';
import { listBookingGroups, type BookingGroupSummary } from '@/lib/bookings/list-booking-groups';
import { listReservations } from '@/lib/bookings/list-reservations';
import type { ReservationView } from '@/lib/bookings/reservation-view';
import { addDays, zonedToday, zonedWallTime } from '@/lib/bookings/stay-window';
import type { Translate } from '@/lib/i18n/locale';
import { isAppError } from '@/lib/errors';
import { paymentsConfigured } from '@/lib/payments/stripe-client';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { Span, TimesIn } from '@/components/time';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { Button, buttonClassName } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/field';
import { ZCalendarDaySchema } from '@/lib/time/date-schemas';

const RESERVATION_STATUSES = ['held', 'confirmed', 'checked_in', 'checked_out', 'cancelled'] as const;
type ReservationStatus = (typeof RESERVATION_STATUSES)[number];
type ReservationSource = 'api' | 'desk' | 'calendly' | 'cal' | 'acuity' | 'booking_site' | 'ical';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('bookings.title') };
}

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

const ZFiltersSchema = z.object({
  status: z.enum(RESERVATION_STATUSES).optional().catch(undefined),
  on: ZCalendarDaySchema.optional().catch(undefined),
  cursor: z.string().max(500).optional().catch(undefined),
});

const PAGE_SIZE = 50;

function first(value: string | string[] | undefined): string | undefined {
  const one = Array.isArray(value) ? value[0] : value;
  return one === '' ? undefined : one;
}

/**
 * The tenant's reservations by arrival — from today, or those staying on a chosen day — filtered by
 * status, a card per reservation on a narrow screen; after a booking, what was booked.
 */
export default async function BookingsPage({ searchParams }: Props) {
  const staff = await requireStaff('desk.view', '/desk/bookings');
  const { tenantId } = staff.current;
  const [t, query, zone] = await Promise.all([getT(), searchParams, tenantTimeZone({ tenantId })]);
  const filters = ZFiltersSchema.parse({
    status: first(query.status),
    on: first(query.on),
    cursor: first(query.cursor),
  });
  const day = filters.on ?? zonedToday(new Date(), zone);
  const from = zonedWallTime(day, 0, zone);
  const page = await listReservations({
    tenantId,
    status: filters.status,
    from,
    ...(filters.on ? { to: zonedWallTime(addDays(day, 1), 0, zone) } : {}),
    limit: PAGE_SIZE,
    cursor: filters.cursor,
  }).catch((error: unknown) => {
    // A cursor from a hand-edited address: the list starts again rather than failing the page.
    if (isAppError(error) && error.code === 'invalid_request') return { data: [], nextCursor: null };
    throw error;
  });
  const createdId = ZCreatedSchema.safeParse(query.created);
  const created = createdId.success
    ? (await listBookingGroups({ tenantId })).find((g) => g.id === createdId.data)
    : undefined;
  const more = (cursor: string) =>
    `/desk/bookings?${new URLSearchParams({
      ...(filters.status ? { status: filters.status } : {}),
      ...(filters.on ? { on: filters.on } : {}),
      cursor,
    })}`;

  return (
    <>
      <header className="page__header page__header--split">
        <div>
          <h1 id="reservations-title">{t('bookings.title')}</h1>
          <p className="page__lead">{t('reservations.lead', { tenant: staff.current.tenantName })}</p>
          <TimesIn zone={zone} />
        </div>
        <Link href="/desk/bookings/new" className={buttonClassName({ variant: 'primary' })}>
          {t('bookings.new')}
        </Link>
      </header>
      <DeskNav current="reservations" />

      {created && <CreatedBanner group={created} t={t} />}

      {!paymentsConfigured() && (
        <Notice tone="warning" announce={false} data-testid="payments-off">
          {t('bookings.paymentsOff')}
        </Notice>
      )}

      <form method="get" action="/desk/bookings" className={styles.filters} aria-label={t('reservations.filters')}>
        <Field id="reservations-status" label={t('reservations.status')}>
          {(control) => (
            <Select {...control} name="status" defaultValue={filters.status ?? ''}>
              <option value="">{t('reservations.anyStatus')}</option>
              {RESERVATION_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`reservation.status.${status}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field id="reservations-on" label={t('reservations.date')}>
          {(control) => <Input {...control} name="on" type="date" defaultValue={filters.on ?? ''} />}
        </Field>
        <div className={styles.actions}>
          <Button type="submit" variant="secondary">
            {t('reservations.apply')}
          </Button>
          {(filters.status || filters.on) && (
            <Link href="/desk/bookings" className={buttonClassName({ variant: 'ghost' })}>
              {t('reservations.clear')}
            </Link>
          )}
        </div>
      </form>

      {page.data.length === 0 ? (
        <p className="empty-state">{t('reservations.empty')}</p>
      ) : (
        <Table region={{ labelledBy: 'reservations-title' }} className={cards.cards} data-testid="bookings-table">
          <thead>
            <tr>
              <th scope="col">{t('reservations.col.room')}</th>
              <th scope="col">{t('reservations.col.guest')}</th>
              <th scope="col">{t('reservations.col.stay')}</th>
              <th scope="col">{t('reservations.col.status')}</th>
              <th scope="col">{t('reservations.col.payment')}</th>
              <th scope="col">{t('reservations.col.source')}</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((r) => (
              <ReservationRow key={r.id} reservation={r} zone={zone} t={t} />
            ))}
          </tbody>
        </Table>
      )}
      {page.nextCursor && (
        <p>
          <Link href={more(page.nextCursor)} className={buttonClassName({ variant: 'secondary' })}>
            {t('reservations.more')}
          </Link>
        </p>
      )}
    </>
  );
}

function ReservationRow({ reservation: r, zone, t }: { reservation: ReservationView; zone: string; t: Translate }) {
  const guest = r.guest ? r.guest.name : null;
  return (
    <tr data-reservation-id={r.id} data-booking-group-id={r.bookingGroupId ?? undefined}>
      <th scope="row">
        <Link
          href={`/desk/reservations/${r.id}`}
          className="table-link"
          aria-label={t('day.open', { room: r.roomLabel, guest: guest ?? t('guest.deletedAccount') })}
        >
          {r.roomLabel}
        </Link>
      </th>
      <td className={cell.wrap} data-label={t('reservations.col.guest')}>
        {guest !== null ? guest : <span className="tombstone">{t('guest.deletedAccount')}</span>}
      </td>
      <td data-label={t('reservations.col.stay')}>
        <Span from={r.startsAt} to={r.endsAt} zone={zone} />
      </td>
      <td data-label={t('reservations.col.status')}>
        <ReservationStatusBadge status={r.status as ReservationStatus} />
      </td>
      <td data-label={t('reservations.col.payment')}>
        <Badge tone={r.paid ? 'success' : 'neutral'}>
          {r.paid ? t('reservations.paid') : t('reservations.unpaid')}
        </Badge>
      </td>
      <td data-label={t('reservations.col.source')}>
        {t(`reservations.source.${r.source as ReservationSource}`)}
        {r.externalRef && <span className="facts__sub">{r.externalRef}</span>}
      </td>
    </tr>
  );
}

/** After a booking: what was booked, with a link to each reservation (its guest link lives there). */
function CreatedBanner({ group, t }: { group: BookingGroupSummary; t: Translate }) {
  const guest = group.guestName ?? t('guest.deletedAccount');
  const count = group.reservations.length;
  return (
    <FocusOnMount className="result-panel result-panel--success result-slot">
      <div className="result-panel__body" role="status" data-testid="booking-created">
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
    </FocusOnMount>
  );
}
