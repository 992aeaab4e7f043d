import type { Metadata } from 'next';
import Link from 'next/link';
import { AddBookingSourceForm, RemoveBookingSourceButton } from '@/app/manage/_components/booking-source-forms';
import { EmptyState, ListSection, PageHeader } from '@/app/manage/_components/list-page';
import { ManageNav } from '@/app/manage/_components/manage-nav';
import { ClientMessages } from '@/components/client-messages';
import { listBookingSources } from '@/lib/bookings/booking-sources';
import { listRoomDetails } from '@/lib/rooms/list-room-details';
import { listRoomTypes } from '@/lib/room-types/list-room-types';
import { getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getT())('bookingSources.title') };
}

/** The providers' own names (not translated). */
const PROVIDER_NAMES = { calendly: 'Calendly', cal: 'Cal.com', acuity: 'Acuity' } as const;

/** Which room a Calendly, Cal.com or Acuity event type's bookings take: list, map one, remove one. */
export default async function BookingSourcesPage() {
  const staff = await requireStaff('property.manage', '/manage/booking-sources');
  const { tenantId } = staff.current;
  const [t, sources, rooms, types] = await Promise.all([
    getT(),
    listBookingSources({ tenantId }),
    listRoomDetails({ tenantId }),
    listRoomTypes({ tenantId }),
  ]);
  const live = rooms.filter((room) => room.archivedAt === null);

  return (
    <>
      <ManageNav staff={staff} current="booking-sources" />
      <PageHeader title={t('bookingSources.title')} lead={t('bookingSources.lead')}>
        <p>
          <Link href="/manage/secrets">{t('bookingSources.secretsLink')}</Link>
        </p>
      </PageHeader>
      <ClientMessages only={['bookingSources']}>
        {live.length === 0 ? (
          <EmptyState
            testId="booking-sources-no-rooms"
            next={<Link href="/manage/rooms">{t('bookingSources.roomsLink')}</Link>}
          >
            {t('bookingSources.noRooms')}
          </EmptyState>
        ) : (
          <section aria-labelledby="booking-source-add-title" className="section card">
            <h2 id="booking-source-add-title">{t('bookingSources.addTitle')}</h2>
            <AddBookingSourceForm
              rooms={live.map((room) => ({ id: room.id, label: `${room.label} · ${room.facility.name}` }))}
              roomTypes={types.map((type) => ({ id: type.id, name: `${type.name} · ${type.facilityName}` }))}
            />
          </section>
        )}
        <ListSection
          headingId="booking-sources-list-title"
          title={t('bookingSources.list')}
          empty={sources.length === 0 ? t('bookingSources.empty') : null}
          emptyTestId="booking-sources-empty"
          tableTestId="booking-sources-table"
        >
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
                <td>{PROVIDER_NAMES[source.provider as keyof typeof PROVIDER_NAMES] ?? source.provider}</td>
                <td className="wrap-anywhere">
                  <code>{source.eventType}</code>
                </td>
                <td>{source.room?.label ?? source.roomType?.name}</td>
                <td>
                  <RemoveBookingSourceButton sourceId={source.id} label={source.eventType} />
                </td>
              </tr>
            ))}
          </tbody>
        </ListSection>
      </ClientMessages>
    </>
  );
}
