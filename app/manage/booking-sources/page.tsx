import type { Metadata } from 'next';
import Link from 'next/link';
import { AddBookingSourceForm, RemoveBookingSourceButton } from '@/app/manage/_components/booking-source-forms';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { Table } from '@/components/ui/table';
import { listBookingSources } from '@/lib/bookings/booking-sources';
import { listRoomDetails } from '@/lib/rooms/list-room-details';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('bookingSources.title') };
}

/** Which room a Calendly or Cal.com event type's bookings take: list, map one, remove one. */
export default async function BookingSourcesPage() {
  const staff = await requireStaff('property.manage', '/manage/booking-sources');
  const { tenantId } = staff.current;
  const [t, sources, rooms] = await Promise.all([
    getT(),
    listBookingSources({ tenantId }),
    listRoomDetails({ tenantId }),
  ]);
  const live = rooms.filter((room) => room.archivedAt === null);

  return (
    <>
      <ManageNav staff={staff} current="booking-sources" />
      <header className="page__header">
        <h1>{t('bookingSources.title')}</h1>
        <p className="page__lead">{t('bookingSources.lead')}</p>
        <p>
          <Link href="/manage/secrets">{t('bookingSources.secretsLink')}</Link>
        </p>
      </header>
      <ClientMessages only={['bookingSources']}>
        {live.length === 0 ? (
          <div className="empty-state" data-testid="booking-sources-no-rooms">
            <p>{t('bookingSources.noRooms')}</p>
            <Link href="/manage/rooms">{t('bookingSources.roomsLink')}</Link>
          </div>
        ) : (
          <section aria-labelledby="booking-source-add-title" className="section card">
            <h2 id="booking-source-add-title">{t('bookingSources.addTitle')}</h2>
            <AddBookingSourceForm
              rooms={live.map((room) => ({ id: room.id, label: `${room.label} · ${room.facility.name}` }))}
            />
          </section>
        )}
        <section aria-labelledby="booking-sources-list-title" className="section">
          <h2 id="booking-sources-list-title">{t('bookingSources.list')}</h2>
          {sources.length === 0 ? (
            <p className="empty-state" data-testid="booking-sources-empty">
              {t('bookingSources.empty')}
            </p>
          ) : (
            <Table region={{ labelledBy: 'booking-sources-list-title' }} data-testid="booking-sources-table">
              <thead>
                <tr>
                  <th scope="col">{t('bookingSources.field.provider')}</th>
                  <th scope="col">{t('bookingSources.field.eventType')}</th>
                  <th scope="col">{t('bookingSources.field.room')}</th>
                  <th scope="col">{t('bookingSources.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {sources.map((source) => (
                  <tr key={source.id} data-testid="booking-source-row">
                    <td>{source.provider === 'cal' ? 'Cal.com' : 'Calendly'}</td>
                    <td className="wrap-anywhere">
                      <code>{source.eventType}</code>
                    </td>
                    <td>{source.room.label}</td>
                    <td>
                      <RemoveBookingSourceButton sourceId={source.id} label={source.eventType} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </section>
      </ClientMessages>
    </>
  );
}
