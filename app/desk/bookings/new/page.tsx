import { FacilityField } from '@/components/facility-field';
import { Field, FieldHint, Input, Select } from '@/components/ui/field';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import Link from 'next/link';
import { BookingGroupForm } from '@/app/desk/_components/booking-group-form';
import { listBookingFacilities, type BookingFacility } from '@/lib/bookings/booking-facilities';
import { hourlyWindow } from '@/lib/bookings/hourly-window';
import { roomAvailability, type RoomAvailability } from '@/lib/bookings/room-availability';
import { stayAmountCents, unitsOf } from '@/lib/payments/stay-amount';
import { addDays, MAX_NIGHTS, minutesOfDay, stayWindow, zonedToday } from '@/lib/bookings/stay-window';
import type { Locale, Translate } from '@/lib/i18n/locale';
import { formatMoney } from '@/lib/i18n/money';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('bookingNew.title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** A room as the form offers it: its rate, unit and name, and what `[startsAt, endsAt)` costs at it. */
function roomOption(room: RoomAvailability, startsAt: Date, endsAt: Date, locale: Locale, t: Translate) {
  const unit = room.rateUnit;
  return {
    id: room.id,
    label: room.label,
    available: room.available,
    rate: t(`hourly.total.${unit}`, {
      rate: t(`hourly.rate.${unit}`, { price: formatMoney(locale, room.rateCents, room.currency) }),
      name: room.rateName,
      amount: formatMoney(locale, stayAmountCents({ ...room, startsAt, endsAt }), room.currency),
      count: unitsOf(unit, startsAt, endsAt),
    }),
  };
}

/** The whole hours an hourly facility is open, as the choices for a booking's length. */
function hourChoices(facility: BookingFacility): number[] {
  const open = minutesOfDay(facility.opensAt ?? '00:00') ?? 0;
  const close = minutesOfDay(facility.closesAt ?? '23:59') ?? 24 * 60;
  return Array.from({ length: Math.max(1, Math.floor((close - open) / 60)) }, (_, i) => i + 1);
}

/**
 * A group booking in two steps. Step 1 is a plain GET form (dates and facility) that reloads this page;
 * step 2 lists that facility's rooms with their availability for the stay and posts guest and rooms
 * to `bookGroupAction`. The guest's details never go into the URL.
 */
export default async function NewBookingPage({ searchParams }: Props) {
  const staff = await requireStaff('bookings.create', '/desk/bookings/new');
  const [t, locale, query] = await Promise.all([getT(), getLocale(), searchParams]);
  const { tenantId } = staff.current;
  const facilities = await listBookingFacilities({ tenantId });

  // The facility's zone, once there is one: the stay's times below are in it.
  const header = (zone?: string) => (
    <>
      <p className="back-link">
        <Link href="/desk/bookings">{t('bookingNew.back')}</Link>
      </p>
      <header className="page__header">
        <h1>{t('bookingNew.title')}</h1>
        <p className="page__lead">{t('bookingNew.lead')}</p>
        {zone && <TimesIn zone={zone} />}
      </header>
    </>
  );
  const facility = facilities.find((f) => f.id === first(query.facility)) ?? facilities[0];
  if (!facility) {
    return (
      <>
        {header()}
        <p className="empty-state">{t('bookingNew.noFacilities')}</p>
      </>
    );
  }

  const now = new Date();
  const today = zonedToday(now, facility.timeZone);
  const hourly = facility.bookingUnit === 'hour';
  const preselected = first(query.room) || undefined;
  const facilityField = facilities.length > 1 && (
    <FacilityField
      id="booking-facility"
      label={t('bookingNew.facility')}
      facilities={facilities}
      defaultValue={facility.id}
    />
  );
  const carried = preselected ? <input type="hidden" name="room" value={preselected} /> : null;
  const when = (date: Date) => <When at={date} zone={facility.timeZone} />;

  let datesForm: ReactNode;
  let window: { startsAt: Date; endsAt: Date } | null = null;
  let facts: ReactNode = null;
  if (hourly) {
    const opening = {
      timeZone: facility.timeZone,
      opensAt: facility.opensAt ?? '00:00',
      closesAt: facility.closesAt ?? '23:59',
    };
    // The grid links here with a date only: the form waits for a start time before it says anything.
    const submitted = query.start !== undefined;
    const date = first(query.date) || today;
    const start = first(query.start);
    const hours = first(query.hours) || '1';
    const asked = submitted && start !== '' ? hourlyWindow({ date, start, hours, opening, now }) : null;
    const errors = submitted
      ? asked && !asked.ok
        ? asked.errors
        : start === ''
          ? { start: 'required' as const }
          : {}
      : {};
    const vars = { opens: opening.opensAt, closes: opening.closesAt };
    if (asked?.ok) {
      window = asked;
      facts = (
        <>
          <div>
            <dt>{t('hourly.stay.starts')}</dt>
            <dd>{when(asked.startsAt)}</dd>
          </div>
          <div>
            <dt>{t('hourly.stay.ends')}</dt>
            <dd>{when(asked.endsAt)}</dd>
          </div>
          <div>
            <dt>{t('hourly.stay.hours')}</dt>
            <dd>{asked.hours}</dd>
          </div>
        </>
      );
    }
    datesForm = (
      <>
        <div className="field-row">
          <Field
            id="booking-date"
            label={t('hourly.date')}
            describedBy="booking-dates-hint"
            error={errors.date ? t(`hourly.error.date.${errors.date}`) : undefined}
          >
            {(control) => <Input {...control} name="date" type="date" required min={today} defaultValue={date} />}
          </Field>
          <Field
            id="booking-start"
            label={t('hourly.start')}
            describedBy="booking-dates-hint"
            error={errors.start ? t(`hourly.error.start.${errors.start}`, vars) : undefined}
          >
            {(control) => (
              <Input
                {...control}
                name="start"
                type="time"
                step={3600}
                required
                min={opening.opensAt}
                max={opening.closesAt}
                defaultValue={start}
              />
            )}
          </Field>
          <Field
            id="booking-hours"
            label={t('hourly.hours')}
            describedBy="booking-dates-hint"
            error={errors.hours ? t(`hourly.error.hours.${errors.hours}`, vars) : undefined}
          >
            {(control) => (
              <Select {...control} name="hours" defaultValue={hours}>
                {hourChoices(facility).map((n) => (
                  <option key={n} value={n}>
                    {t('hourly.hourCount', { count: n })}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          {facilityField}
        </div>
        <FieldHint id="booking-dates-hint">{t('hourly.hint', vars)}</FieldHint>
      </>
    );
  } else {
    const submitted = query.checkIn !== undefined || query.checkOut !== undefined;
    const checkIn = submitted ? first(query.checkIn) : today;
    const checkOut = submitted ? first(query.checkOut) : addDays(today, 1);
    const times = { checkInTime: facility.checkInTime, checkOutTime: facility.checkOutTime };
    const stay = submitted ? stayWindow({ checkIn, checkOut, timeZone: facility.timeZone, now, ...times }) : null;
    const errors = stay && !stay.ok ? stay.errors : {};
    if (stay?.ok) {
      window = stay;
      facts = (
        <>
          <div>
            <dt>{t('bookingNew.stay.checkIn')}</dt>
            <dd>{when(stay.startsAt)}</dd>
          </div>
          <div>
            <dt>{t('bookingNew.stay.checkOut')}</dt>
            <dd>{when(stay.endsAt)}</dd>
          </div>
          <div>
            <dt>{t('bookingNew.stay.nights')}</dt>
            <dd>{stay.nights}</dd>
          </div>
        </>
      );
    }
    datesForm = (
      <>
        <div className="field-row">
          <Field
            id="booking-check-in"
            label={t('bookingNew.checkIn')}
            describedBy="booking-dates-hint"
            error={errors.checkIn ? t(`bookingNew.error.checkIn.${errors.checkIn}`) : undefined}
          >
            {(control) => <Input {...control} name="checkIn" type="date" required min={today} defaultValue={checkIn} />}
          </Field>
          <Field
            id="booking-check-out"
            label={t('bookingNew.checkOut')}
            describedBy="booking-dates-hint"
            error={errors.checkOut ? t(`bookingNew.error.checkOut.${errors.checkOut}`, { max: MAX_NIGHTS }) : undefined}
          >
            {(control) => (
              <Input {...control} name="checkOut" type="date" required min={today} defaultValue={checkOut} />
            )}
          </Field>
          {facilityField}
        </div>
        <FieldHint id="booking-dates-hint">
          {t('bookingNew.datesHint', { checkIn: facility.checkInTime, checkOut: facility.checkOutTime })}
        </FieldHint>
      </>
    );
  }
  const rooms = window
    ? (await roomAvailability({ tenantId, startsAt: window.startsAt, endsAt: window.endsAt })).filter(
        (r) => r.facilityId === facility.id,
      )
    : [];

  return (
    <>
      {header(facility.timeZone)}

      <section aria-labelledby="booking-dates-title" className="card booking-step">
        <h2 id="booking-dates-title">{t('bookingNew.step.dates')}</h2>
        {/* noValidate: the server's messages (translated, inline) are the ones the user sees. */}
        <form method="get" action="/desk/bookings/new" noValidate className="form">
          {datesForm}
          {carried}
          <div>
            <Button type="submit" variant={window ? 'secondary' : 'primary'}>
              {t('bookingNew.showRooms')}
            </Button>
          </div>
        </form>
      </section>

      {window && (
        <section aria-labelledby="booking-rooms-title" className="card booking-step">
          <h2 id="booking-rooms-title">{t('bookingNew.step.rooms')}</h2>
          <dl className="facts booking-stay">
            {facts}
            <div>
              <dt>{t('bookingNew.stay.facility')}</dt>
              <dd>{facility.name}</dd>
            </div>
            <div>
              <dt>{t('bookingNew.stay.timeZone')}</dt>
              <dd>{facility.timeZone}</dd>
            </div>
          </dl>
          {rooms.length === 0 ? (
            <p className="empty-state">{t('bookingNew.noRooms')}</p>
          ) : (
            <ClientMessages only={['bookingForm']}>
              <BookingGroupForm
                // A new stay starts a fresh form.
                key={`${window.startsAt.toISOString()}-${window.endsAt.toISOString()}-${facility.id}`}
                startsAt={window.startsAt.toISOString()}
                endsAt={window.endsAt.toISOString()}
                // Money is formatted on the server (lib/i18n/money.ts), with the rate's unit and name.
                rooms={rooms.map((r) => roomOption(r, window.startsAt, window.endsAt, locale, t))}
                preselected={preselected}
              />
            </ClientMessages>
          )}
        </section>
      )}
    </>
  );
}
