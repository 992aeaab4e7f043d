import type { Metadata } from 'next';
import Link from 'next/link';
import { DeskNav } from '@/app/desk/_components/desk-nav';
import { ReleaseHold } from '@/app/desk/_components/release-hold';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import { ClientMessages } from '@/components/client-messages';
import { Span, TimesIn, When } from '@/components/time';
import { Badge } from '@/components/ui/badge';
import { cell, Table } from '@/components/ui/table';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { listUnpaidHolds } from '@/lib/bookings/unpaid-holds';
import { can } from '@/lib/auth/permissions';
import { tenantTimeZone } from '@/lib/rooms/list-facilities';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('holds.title') };
}

/**
 * The booking site's unpaid holds (issue 43.4): stays held for their online payment or booked to be paid at the
 * property with nothing paid, not yet over — each with how many the same mailbox and client address hold at the
 * facility, and a button that releases it (the stay cancelled, the room free, audited).
 */
export default async function HoldsPage() {
  const staff = await requireStaff('desk.view', '/desk/holds');
  const { tenantId } = staff.current;
  const [t, holds, zone] = await Promise.all([getT(), listUnpaidHolds({ tenantId }), tenantTimeZone({ tenantId })]);
  const mayRelease = can(staff.current.role, 'stays.change');
  return (
    <>
      <header className="page__header">
        <h1 id="holds-title">{t('holds.title')}</h1>
        <p className="page__lead">{t('holds.lead')}</p>
        <TimesIn zone={zone} />
      </header>
      <DeskNav current="holds" />
      {holds.length === 0 ? (
        <p className="muted" data-testid="holds-empty">
          {t('holds.empty')}
        </p>
      ) : (
        <ClientMessages only={['holds']}>
          <Table region={{ labelledBy: 'holds-title' }} data-testid="holds">
            <thead>
              <tr>
                <th scope="col">{t('holds.guest')}</th>
                <th scope="col">{t('holds.room')}</th>
                <th scope="col">{t('holds.stay')}</th>
                <th scope="col">{t('holds.state')}</th>
                <th scope="col">{t('holds.from')}</th>
                {mayRelease && <th scope="col">{t('holds.action')}</th>}
              </tr>
            </thead>
            <tbody>
              {holds.map((hold) => (
                <tr key={hold.reservationId} data-testid="hold-row">
                  <td className={cell.wrap}>
                    <Link href={`/desk/reservations/${hold.reservationId}`}>{hold.guestDisplay}</Link>
                  </td>
                  <td>{hold.roomLabel}</td>
                  <td>
                    <Span from={hold.startsAt} to={hold.endsAt} zone={zone} />
                  </td>
                  <td>
                    <ReservationStatusBadge status={hold.status} />{' '}
                    {hold.holdExpiresAt ? (
                      <span className="muted">
                        {t('holds.until')} <When at={hold.holdExpiresAt} zone={zone} style="time" />
                      </span>
                    ) : (
                      <span className="muted">{t('holds.unpaid')}</span>
                    )}
                  </td>
                  <td data-testid="hold-from">
                    {hold.fromOneMailbox > 1 && (
                      <Badge tone="warning">{t('holds.sameMailbox', { count: hold.fromOneMailbox })}</Badge>
                    )}{' '}
                    {hold.fromOneAddress > 1 && (
                      <Badge tone="warning">{t('holds.sameAddress', { count: hold.fromOneAddress })}</Badge>
                    )}
                  </td>
                  {mayRelease && (
                    <td>
                      <ReleaseHold reservationId={hold.reservationId} guest={hold.guestDisplay} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </Table>
        </ClientMessages>
      )}
    </>
  );
}
