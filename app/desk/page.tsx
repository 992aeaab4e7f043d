import type { Metadata } from 'next';
import { listArrivals } from '@/lib/bookings/list-arrivals';
import { formatDateTime } from '@/lib/i18n/locale';
import { getLocale, getT } from '../_server/i18n';
import { requireStaff } from '../_server/staff';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('desk.title') };
}

const STATUS_BADGE = {
  held: 'badge--warning',
  confirmed: 'badge--info',
  checked_in: 'badge--success',
  checked_out: '',
  cancelled: 'badge--danger',
} as const;

/** Today's arrivals: the current tenant's non-cancelled reservations that overlap today. */
export default async function DeskPage() {
  // Layouts and pages render in parallel, so the page guards itself too.
  const staff = await requireStaff('desk.view', '/desk');
  const [t, locale] = await Promise.all([getT(), getLocale()]);
  const { tenantId } = staff.current;

  const reservations = await listArrivals({ tenantId, userId: staff.user.id });

  return (
    <>
      <header className="page__header">
        <h1 id="desk-title">{t('desk.title')}</h1>
        <p className="page__lead">{t('desk.summary', { tenant: staff.current.tenantName })}</p>
      </header>
      {reservations.length === 0 ? (
        <p className="empty-state">{t('desk.empty')}</p>
      ) : (
        <div className="table-wrap" role="region" aria-labelledby="desk-title" tabIndex={0}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">{t('desk.col.room')}</th>
                <th scope="col">{t('desk.col.guest')}</th>
                <th scope="col">{t('desk.col.startsAt')}</th>
                <th scope="col">{t('desk.col.endsAt')}</th>
                <th scope="col">{t('desk.col.status')}</th>
              </tr>
            </thead>
            <tbody>
              {reservations.map((r) => {
                const { timeZone } = r;
                return (
                  <tr key={r.id}>
                    <th scope="row">{r.roomLabel}</th>
                    <td className="wrap">
                      {r.guestName !== null ? r.guestName : <span className="tombstone">{t('guest.deletedAccount')}</span>}
                    </td>
                    <td>
                      <time dateTime={r.startsAt.toISOString()}>{formatDateTime(locale, r.startsAt, timeZone)}</time>
                    </td>
                    <td>
                      <time dateTime={r.endsAt.toISOString()}>{formatDateTime(locale, r.endsAt, timeZone)}</time>
                    </td>
                    <td>
                      <span className={`badge ${STATUS_BADGE[r.status]}`}>{t(`reservation.status.${r.status}`)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
