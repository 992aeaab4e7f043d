import { cell, Table } from '@/components/ui/table';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import type { Metadata } from 'next';
import Link from 'next/link';
import { Arrived } from '@/app/desk/_components/arrived';
import { CheckInProvider } from '@/app/desk/_components/check-in';
import { DeskNav } from '@/app/desk/_components/desk-nav';
import { KeyBadges } from '@/app/desk/_components/key-badges';
import { LiveRefresh } from '@/app/desk/_components/live-refresh';
import cards from '@/app/desk/_components/stay-cards.module.css';
import { can } from '@/lib/auth/permissions';
import type { DayStay } from '@/lib/desk/desk-day';
import { readDeskToday } from '@/lib/desk/desk-today';
import type { CheckInWindow } from '@/lib/stays/check-in-windows';
import type { CheckInLockProblem } from '@/lib/locks/check-in-lock-problems';
import type { LiveKey } from '@/lib/keys/live-keys-of';
import type { Translate } from '@/lib/i18n/locale';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { CheckInAction } from '@/app/desk/_components/check-in-action';
import { DeskGuestMessages } from '@/app/desk/_components/desk-guest-messages';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('day.title') };
}

type Section = 'arrivals' | 'inHouse' | 'departures';

type TableProps = {
  id: string;
  rows: DayStay[];
  keys: Map<string, LiveKey>;
  windows: Map<string, CheckInWindow>;
  lockProblems: Map<string, CheckInLockProblem[]>;
  canCheckIn: boolean;
  t: Translate;
};

/** Who a row is about, as buttons and links name it: "Room 102 · Kenji Sato". */
function subjectOf(r: DayStay, t: Translate): string {
  return t('day.subject', { room: r.roomLabel, guest: r.guestName ?? t('guest.deletedAccount') });
}

/** One section's stays: a table on a wide screen, a card per stay on a narrow one. */
function StayTable({ id, rows, keys, windows, lockProblems, canCheckIn, t }: TableProps) {
  const now = new Date();
  const arriving = (r: DayStay) => r.status === 'held' || r.status === 'confirmed';
  const showActions = canCheckIn && rows.some(arriving);
  return (
    <Table region={{ labelledBy: `${id}-title` }} className={cards.cards} data-testid={`${id}-table`}>
      <thead>
        <tr>
          <th scope="col">{t('day.col.room')}</th>
          <th scope="col">{t('day.col.guest')}</th>
          <th scope="col">{t('day.col.arrives')}</th>
          <th scope="col">{t('day.col.departs')}</th>
          <th scope="col">{t('day.col.status')}</th>
          <th scope="col">{t('day.col.key')}</th>
          {showActions && <th scope="col">{t('day.col.actions')}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const { timeZone } = r;
          const key = keys.get(r.id);
          const roomCellId = `${id}-room-${r.id}`;
          return (
            <tr key={r.id} data-reservation-id={r.id} data-testid="stay-row">
              <th scope="row" id={roomCellId}>
                <Link
                  href={`/desk/reservations/${r.id}`}
                  className="table-link"
                  aria-label={t('day.open', { room: r.roomLabel, guest: r.guestName ?? t('guest.deletedAccount') })}
                >
                  {r.roomLabel}
                </Link>
              </th>
              <td className={cell.wrap} data-label={t('day.col.guest')}>
                {r.guestName !== null ? r.guestName : <span className="tombstone">{t('guest.deletedAccount')}</span>}
              </td>
              <td data-label={t('day.col.arrives')}>
                <When at={r.startsAt} zone={timeZone} />
              </td>
              <td data-label={t('day.col.departs')}>
                <When at={r.endsAt} zone={timeZone} />
              </td>
              <td data-label={t('day.col.status')}>
                <ReservationStatusBadge status={r.status} />
                {r.arrivedAt && (
                  <>
                    {' '}
                    <Arrived at={r.arrivedAt} zone={timeZone} now={now} />
                  </>
                )}
              </td>
              <td data-label={t('day.col.key')}>
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
                <td data-label="">
                  {arriving(r) && r.guestName !== null && (
                    <CheckInAction
                      reservationId={r.id}
                      describedBy={roomCellId}
                      window={windows.get(r.id)}
                      lockProblems={lockProblems.get(r.id)}
                      now={now}
                      timeZone={timeZone}
                      subject={subjectOf(r, t)}
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
 * The desk's day: arrivals still to check in (with "Complete check-in"), guests in house and
 * today's departures, each judged by its facility's own today, each with its live key (masked).
 * The page refreshes itself while a key waits for its lock, and when the tab comes back.
 */
export default async function DeskPage() {
  // Layouts and pages render in parallel, so the page guards itself too.
  const staff = await requireStaff('desk.view', '/desk');
  const { tenantId } = staff.current;
  const userId = staff.user.id;
  const [t, { zone, day, ids, keys, windows, offlineCodes, sync, lockProblems, guestMessages }] = await Promise.all([
    getT(),
    readDeskToday({ tenantId, userId }),
  ]);
  const tableProps = { keys, windows, lockProblems, canCheckIn: can(staff.current.role, 'checkin.complete'), t };
  const sections: { id: string; section: Section; rows: DayStay[] }[] = [
    { id: 'arrivals', section: 'arrivals', rows: day.arrivals },
    { id: 'in-house', section: 'inHouse', rows: day.inHouse },
    { id: 'departures', section: 'departures', rows: day.departures },
  ];
  const roomLabels = Object.fromEntries(
    [...day.arrivals, ...day.inHouse, ...day.departures].map((r) => [r.id, r.roomLabel]),
  );

  return (
    <>
      <header className="page__header">
        <h1 id="desk-title">{t('day.title')}</h1>
        <p className="page__lead">{t('day.lead', { tenant: staff.current.tenantName })}</p>
        <TimesIn zone={zone} />
      </header>
      <DeskNav current="today" />
      <LiveRefresh reservationIds={ids} watch={{ day: true }} initial={sync} />
      <DeskGuestMessages messages={guestMessages} zone={zone} t={t} />
      <ClientMessages only={['checkIn']}>
        <CheckInProvider
          roomLabels={roomLabels}
          offlineCodes={offlineCodes}
          liveKeyIds={[...keys.values()].map((key) => key.id)}
        >
          {sections.map(({ id, section, rows }) => (
            <section key={id} className="desk-section" aria-labelledby={`${id}-title`} data-testid={`day-${id}`}>
              <h2 id={`${id}-title`}>
                {t(`day.section.${section}`)} <span className="count">{rows.length}</span>
              </h2>
              {rows.length === 0 ? (
                <p className="empty-state">{t(`day.empty.${section}`)}</p>
              ) : (
                <StayTable id={id} rows={rows} {...tableProps} />
              )}
            </section>
          ))}
        </CheckInProvider>
      </ClientMessages>
    </>
  );
}
