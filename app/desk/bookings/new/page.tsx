import { Field, FieldHint, Input, Select } from '@/components/ui/field';
import type { Metadata } from 'next';
import { Button } from '@/components/ui/button';
import Link from 'next/link';
import { BookingGroupForm } from '@/app/desk/_components/booking-group-form';
import { roomAvailability } from '@/lib/bookings/room-availability';
import { CHECK_IN_HOUR, CHECK_OUT_HOUR, MAX_NIGHTS, stayWindow, zonedToday } from '@/lib/bookings/stay-window';
import { formatMoney } from '@/lib/i18n/money';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { listFacilities } from '@/lib/rooms/list-facilities';
import { getLocale, getT } from '@/app/_server/i18n';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('bookingNew.title') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const DAY_MS = 86_400_000;

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
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
  const facilities = await listFacilities({ tenantId });

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
  const submitted = query.checkIn !== undefined || query.checkOut !== undefined;
  const checkIn = submitted ? first(query.checkIn) : today;
  const checkOut = submitted
    ? first(query.checkOut)
    : new Date(Date.parse(`${today}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  const stay = submitted ? stayWindow({ checkIn, checkOut, timeZone: facility.timeZone, now }) : null;
  const errors = stay && !stay.ok ? stay.errors : {};
  const rooms = stay?.ok
    ? (await roomAvailability({ tenantId, startsAt: stay.startsAt, endsAt: stay.endsAt })).filter(
        (r) => r.facilityId === facility.id,
      )
    : [];

  const checkInError = errors.checkIn ? t(`bookingNew.error.checkIn.${errors.checkIn}`) : null;
  const checkOutError = errors.checkOut ? t(`bookingNew.error.checkOut.${errors.checkOut}`, { max: MAX_NIGHTS }) : null;
  const when = (date: Date) => <When at={date} zone={facility.timeZone} />;

  return (
    <>
      {header(facility.timeZone)}

      <section aria-labelledby="booking-dates-title" className="card booking-step">
        <h2 id="booking-dates-title">{t('bookingNew.step.dates')}</h2>
        {/* noValidate: the server's messages (translated, inline) are the ones the user sees. */}
        <form method="get" action="/desk/bookings/new" noValidate className="form">
          <div className="field-row">
            <Field
              id="booking-check-in"
              label={t('bookingNew.checkIn')}
              describedBy="booking-dates-hint"
              error={checkInError || undefined}
            >
              {(control) => (
                <Input {...control} name="checkIn" type="date" required min={today} defaultValue={checkIn} />
              )}
            </Field>
            <Field
              id="booking-check-out"
              label={t('bookingNew.checkOut')}
              describedBy="booking-dates-hint"
              error={checkOutError || undefined}
            >
              {(control) => (
                <Input {...control} name="checkOut" type="date" required min={today} defaultValue={checkOut} />
              )}
            </Field>
            {facilities.length > 1 && (
              <Field id="booking-facility" label={t('bookingNew.facility')}>
                {(control) => (
                  <Select {...control} name="facility" defaultValue={facility.id}>
                    {facilities.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
            )}
          </div>
          <FieldHint id="booking-dates-hint">
            {t('bookingNew.datesHint', { checkIn: hourLabel(CHECK_IN_HOUR), checkOut: hourLabel(CHECK_OUT_HOUR) })}
          </FieldHint>
          <div>
            <Button type="submit" variant={stay?.ok ? 'secondary' : 'primary'}>
              {t('bookingNew.showRooms')}
            </Button>
          </div>
        </form>
      </section>

      {stay?.ok && (
        <section aria-labelledby="booking-rooms-title" className="card booking-step">
          <h2 id="booking-rooms-title">{t('bookingNew.step.rooms')}</h2>
          <dl className="facts booking-stay">
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
                key={`${stay.startsAt.toISOString()}-${stay.endsAt.toISOString()}-${facility.id}`}
                startsAt={stay.startsAt.toISOString()}
                endsAt={stay.endsAt.toISOString()}
                rooms={rooms.map((r) => ({
                  id: r.id,
                  label: r.label,
                  available: r.available,
                  // Money is formatted on the server (lib/i18n/money.ts); the form puts it in its sentence.
                  price: formatMoney(locale, r.rateCents, r.currency),
                }))}
              />
            </ClientMessages>
          )}
        </section>
      )}
    </>
  );
}
