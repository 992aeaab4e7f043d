import { cell, Table } from '@/components/ui/table';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import type { Metadata } from 'next';
import Link from 'next/link';
import { CheckInProvider } from '@/app/desk/_components/check-in';
import { KeyBadges } from '@/app/desk/_components/key-badges';
import { can } from '@/lib/auth/permissions';
import { listArrivals, type Arrival } from '@/lib/bookings/list-arrivals';
import { checkInWindows, type CheckInWindow } from '@/lib/stays/check-in-windows';
import { liveKeysOf, type LiveKey } from '@/lib/keys/live-keys-of';
import { offlineCodesStillValid } from '@/lib/keys/offline-codes-still-valid';
import type { Translate } from '@/lib/i18n/locale';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { getT } from '@/app/_server/i18n';
import { requireStaff } from '@/app/_server/staff';
import { CheckInAction } from '@/app/desk/_components/check-in-action';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('desk.title') };
}

type TableProps = {
  id: string;
  rows: Arrival[];
  keys: Map<string, LiveKey>;
  windows: Map<string, CheckInWindow>;
  canCheckIn: boolean;
  t: Translate;
};

function ArrivalsTable({ id, rows, keys, windows, canCheckIn, t }: TableProps) {
  const now = new Date();
  const showActions = canCheckIn && rows.some((r) => r.status === 'held' || r.status === 'confirmed');
  return (
    <Table region={{ labelledBy: `${id}-title` }} data-testid={`${id}-table`}>
      <thead>
        <tr>
          <th scope="col">{t('desk.col.room')}</th>
          <th scope="col">{t('desk.col.guest')}</th>
          <th scope="col">{t('desk.col.startsAt')}</th>
          <th scope="col">{t('desk.col.endsAt')}</th>
          <th scope="col">{t('desk.col.status')}</th>
          <th scope="col">{t('desk.col.key')}</th>
          {showActions && <th scope="col">{t('desk.col.actions')}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const { timeZone } = r;
          const key = keys.get(r.id);
          const roomCellId = `room-${r.id}`;
          return (
            <tr key={r.id} data-reservation-id={r.id}>
              <th scope="row" id={roomCellId}>
                <Link href={`/desk/reservations/${r.id}`} className="table-link">
                  {r.roomLabel}
                </Link>
              </th>
              <td className={cell.wrap}>
                {r.guestName !== null ? r.guestName : <span className="tombstone">{t('guest.deletedAccount')}</span>}
              </td>
              <td>
                <When at={r.startsAt} zone={timeZone} />
              </td>
              <td>
                <When at={r.endsAt} zone={timeZone} />
              </td>
              <td>
                <ReservationStatusBadge status={r.status} />
              </td>
              <td>
                {key ? (
                  <span className="key-cell">
                    <KeyBadges status={key.status} vendorSync={key.vendorSync} vendorError={key.vendorError} />
                    <span className="pin-mask" role="img" aria-label={t('key.pinHidden')}>
                      ••••••
                    </span>
                  </span>
                ) : (
                  <span className="muted">{t('desk.noKey')}</span>
                )}
              </td>
              {showActions && (
                <td>
                  {(r.status === 'held' || r.status === 'confirmed') && r.guestName !== null && (
                    <CheckInAction
                      reservationId={r.id}
                      describedBy={roomCellId}
                      window={windows.get(r.id)}
                      now={now}
                      timeZone={timeZone}
                    />
                  )}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/**
 * Today's arrivals, split into those still to check in and those in house, each with its live key
 * (masked) and, for arrivals, "Complete check-in".
 */
export default async function DeskPage() {
  // Layouts and pages render in parallel, so the page guards itself too.
  const staff = await requireStaff('desk.view', '/desk');
  const { tenantId } = staff.current;
  const [t, zone] = await Promise.all([getT(), tenantTimeZone({ tenantId })]);

  const reservations = await listArrivals({ tenantId, userId: staff.user.id });
  const keys = await liveKeysOf({ tenantId, userId: staff.user.id, reservationIds: reservations.map((r) => r.id) });
  const arrivingIds = reservations.filter((r) => r.status === 'held' || r.status === 'confirmed').map((r) => r.id);
  const windows = await checkInWindows({ tenantId, userId: staff.user.id, reservationIds: arrivingIds });
  // Read again after a check-in revalidates the page: the panel then names a superseded offline code.
  const offlineCodes = await offlineCodesStillValid({
    tenantId,
    userId: staff.user.id,
    reservationIds: reservations.filter((r) => r.status === 'checked_in').map((r) => r.id),
  });
  const arriving = reservations.filter((r) => r.status === 'held' || r.status === 'confirmed');
  const inHouse = reservations.filter((r) => r.status === 'checked_in');
  const departed = reservations.filter((r) => r.status === 'checked_out');
  const canCheckIn = can(staff.current.role, 'checkin.complete');
  const tableProps = { keys, windows, canCheckIn, t };

  return (
    <>
      <header className="page__header">
        <h1 id="desk-title">{t('desk.title')}</h1>
        <p className="page__lead">{t('desk.summary', { tenant: staff.current.tenantName })}</p>
        <TimesIn zone={zone} />
      </header>
      {reservations.length === 0 ? (
        <p className="empty-state">{t('desk.empty')}</p>
      ) : (
        <ClientMessages only={['checkIn']}>
          <CheckInProvider
            roomLabels={Object.fromEntries(reservations.map((r) => [r.id, r.roomLabel]))}
            offlineCodes={offlineCodes}
          >
            <section className="desk-section" aria-labelledby="arriving-title">
              <h2 id="arriving-title">
                {t('desk.section.arriving')} <span className="count">{arriving.length}</span>
              </h2>
              {arriving.length === 0 ? (
                <p className="empty-state">{t('desk.arriving.empty')}</p>
              ) : (
                <ArrivalsTable id="arriving" rows={arriving} {...tableProps} />
              )}
            </section>
            <section className="desk-section" aria-labelledby="in-house-title">
              <h2 id="in-house-title">
                {t('desk.section.inHouse')} <span className="count">{inHouse.length}</span>
              </h2>
              {inHouse.length === 0 ? (
                <p className="empty-state">{t('desk.inHouse.empty')}</p>
              ) : (
                <ArrivalsTable id="in-house" rows={inHouse} {...tableProps} />
              )}
            </section>
            {departed.length > 0 && (
              <section className="desk-section" aria-labelledby="departed-title">
                <h2 id="departed-title">
                  {t('desk.section.departed')} <span className="count">{departed.length}</span>
                </h2>
                <ArrivalsTable id="departed" rows={departed} {...tableProps} />
              </section>
            )}
          </CheckInProvider>
        </ClientMessages>
      )}
    </>
  );
}
