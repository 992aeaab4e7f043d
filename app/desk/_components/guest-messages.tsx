import { getT } from '@/i18n/server';
import { ResendLinkForm } from '@/app/desk/_components/guest-messages-resend';
import { MessageTable } from '@/components/message-table';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import type { ReservationDetail } from '@/lib/desk/reservation-detail';
import { listReservationMessages } from '@/lib/messages/list-messages';

/**
 * The emails of a reservation's guest at the desk: each message's kind, recipient, status, attempts
 * and sent time, "no email on file" when there is no one to write to, and "Resend link".
 */
export async function GuestMessages({
  staff,
  reservation: detail,
}: {
  staff: StaffContext;
  reservation: Pick<ReservationDetail, 'id' | 'roomLabelSnapshot' | 'status' | 'guest' | 'room'>;
}) {
  const timeZone = detail.room.facility.timeZone;
  const reservation = {
    id: detail.id,
    roomLabel: detail.roomLabelSnapshot,
    status: detail.status,
    guestEmail: detail.guest?.email ?? null,
    guestDeleted: detail.guest === null,
  };
  const [t, messages] = await Promise.all([
    getT(),
    listReservationMessages({ tenantId: staff.current.tenantId, userId: staff.user.id, reservationId: reservation.id }),
  ]);
  const live = reservation.status !== 'cancelled' && reservation.status !== 'checked_out';
  const canResend = can(staff.current.role, 'messages.resend') && live && reservation.guestEmail !== null;
  return (
    <section className="section card" aria-labelledby="guest-messages-title" data-testid="guest-messages">
      <h2 id="guest-messages-title">{t('messages.title')}</h2>
      <p className="muted">{t('messages.lead')}</p>
      {!reservation.guestDeleted && reservation.guestEmail === null && (
        <p className="empty-state" data-testid="guest-messages-no-email">
          {t('messages.noEmail')}
        </p>
      )}
      {messages.length === 0 ? (
        <p className="empty-state">{t('messages.none')}</p>
      ) : (
        <MessageTable labelledBy="guest-messages-title" messages={messages} t={t} zone={timeZone} />
      )}
      {canResend && reservation.guestEmail && (
        <ResendLinkForm
          reservationId={reservation.id}
          words={{
            label: t('messages.resend'),
            accessibleName: t('messages.resendFor', { room: reservation.roomLabel, to: reservation.guestEmail }),
            pending: t('messages.resendPending'),
            done: t('messages.resent', { to: reservation.guestEmail }),
          }}
        />
      )}
    </section>
  );
}
