import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClassName } from '@/components/ui/button';
import { FacilityField } from '@/components/facility-field';
import { Field, Input } from '@/components/ui/field';
import { Table, cell } from '@/components/ui/table';
import { TimesIn, When } from '@/components/time';
import { readRegisterDay, registerFacilities } from '@/lib/registration/register-day';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { zonedToday } from '@/lib/bookings/stay-window';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('register.title') };
}

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/**
 * The guest register (Japan's lodging law) of a facility for one arrival day: each stay arriving then
 * and its recorded guests, for a manager. Reading it is audited `registration.viewed` (by PostgreSQL, in
 * the read's transaction), as is each passport photo opened; the CSV export `registration.exported`.
 */
export default async function RegisterPage({ searchParams }: Props) {
  const staff = await requireStaff('register.view', '/manage/register');
  const { tenantId } = staff.current;
  const [t, query, facilities] = await Promise.all([getT(), searchParams, registerFacilities(tenantId)]);
  const facility = facilities.find((f) => f.id === one(query.facility)) ?? facilities[0];
  const requested = one(query.day);
  const day =
    requested && /^\d{4}-\d{2}-\d{2}$/.test(requested)
      ? requested
      : facility
        ? zonedToday(new Date(), facility.timeZone)
        : '';
  const stays = facility
    ? await readRegisterDay({ tenantId, userId: staff.user.id }, { facilityId: facility.id, day, purpose: 'viewed' })
    : [];

  return (
    <>
      <ManageNav staff={staff} current="register" />
      <PageHeader title={t('register.title')} lead={t('register.lead')}>
        {facility && <TimesIn zone={facility.timeZone} />}
      </PageHeader>
      {!facility ? (
        <EmptyState testId="register-no-facility">{t('register.noFacility')}</EmptyState>
      ) : (
        <>
          <form method="get" className="form form--inline" data-testid="register-day-form">
            <FacilityField
              id="register-facility"
              label={t('register.facility')}
              facilities={facilities}
              defaultValue={facility.id}
            />
            <Field id="register-day" label={t('register.day')}>
              {(control) => <Input {...control} type="date" name="day" defaultValue={day} required />}
            </Field>
            <Button type="submit">{t('register.show')}</Button>
            <a
              className={buttonClassName({ variant: 'secondary' })}
              href={`/manage/register/export?facility=${facility.id}&day=${day}`}
              download
              data-testid="register-export"
            >
              {t('register.export')}
            </a>
          </form>
          {stays.length === 0 ? (
            <EmptyState testId="register-empty">{t('register.empty')}</EmptyState>
          ) : (
            stays.map((stay) => (
              <section key={stay.reservationId} className="register-stay" data-testid="register-stay">
                <h2>
                  {t('register.stay', { room: stay.roomLabel })} · <When at={stay.startsAt} zone={facility.timeZone} />{' '}
                  {stay.complete ? (
                    <Badge tone="success">{t('register.complete')}</Badge>
                  ) : (
                    <Badge tone="danger">{t('register.missing')}</Badge>
                  )}
                </h2>
                {stay.guests.length === 0 ? (
                  <p className="muted">{t('register.noGuests')}</p>
                ) : (
                  <Table region={{ label: t('register.stay', { room: stay.roomLabel }) }}>
                    <thead>
                      <tr>
                        <th scope="col">{t('register.col.guest')}</th>
                        <th scope="col">{t('register.col.name')}</th>
                        <th scope="col">{t('register.col.address')}</th>
                        <th scope="col">{t('register.col.nationality')}</th>
                        <th scope="col">{t('register.col.occupation')}</th>
                        <th scope="col">{t('register.col.passport')}</th>
                        <th scope="col">{t('register.col.image')}</th>
                        <th scope="col">{t('register.col.keptUntil')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {stay.guests.map((g) => (
                        <tr key={g.registrationId} data-testid="register-guest">
                          <td className={cell.numeric}>{g.position}</td>
                          <th scope="row">{g.name}</th>
                          <td className={cell.wrap}>
                            {g.address}
                            {g.addressInJapan && <span className="muted"> ({t('register.inJapan')})</span>}
                          </td>
                          <td>{g.nationality}</td>
                          <td>{g.occupation ?? ''}</td>
                          <td>{g.passportNumber ?? ''}</td>
                          <td>
                            {g.hasPassportImage ? (
                              <a
                                href={`/manage/register/passport/${g.registrationId}`}
                                target="_blank"
                                rel="noreferrer"
                              >
                                {t('register.openImage')}
                              </a>
                            ) : (
                              t('register.noImage')
                            )}
                          </td>
                          <td>
                            <When at={g.retainUntil} zone={facility.timeZone} />
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                )}
              </section>
            ))
          )}
        </>
      )}
    </>
  );
}
