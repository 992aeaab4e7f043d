import { getT } from '@/app/_server/i18n';
import { ResendLinkForm, RefreshWhilePending } from '@/app/desk/_components/guest-messages-resend';
import { When } from '@/components/time';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { cell, Table } from '@/components/ui/table';
import { can } from '@/lib/auth/permissions';
import type { StaffContext } from '@/lib/auth/staff';
import type { ReservationDetail } from '@/lib/bookings/reservation-detail';
import { listReservationMessages } from '@/lib/messages/list-messages';
import type { MessageRecord } from '@/lib/messages/message-view';

const STATUS_TONE: Record<MessageRecord['status'], BadgeTone> = {
  queued: 'info',
  sending: 'info',
  sent: 'success',
  failed: 'danger',
  skipped: 'neutral',
};

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
        <Table region={{ labelledBy: 'guest-messages-title' }}>
          <thead>
            <tr>
              <th scope="col">{t('messages.columns.kind')}</th>
              <th scope="col">{t('messages.columns.to')}</th>
              <th scope="col">{t('messages.columns.status')}</th>
              <th scope="col" className={cell.numeric}>
                {t('messages.columns.attempts')}
              </th>
              <th scope="col">{t('messages.columns.sentAt')}</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((message) => (
              <tr key={message.id} data-testid="guest-message" data-status={message.status}>
                <td>{t(`messages.kind.${message.kind}`)}</td>
                <td className={cell.wrap}>{message.to ?? <span className="tombstone">{t('messages.erased')}</span>}</td>
                <td>
                  <Badge tone={STATUS_TONE[message.status]} title={message.lastError ?? undefined}>
                    {t(`messages.status.${message.status}`)}
                  </Badge>
                </td>
                <td className={cell.numeric}>{message.attempts}</td>
                <td>{message.sentAt ? <When at={message.sentAt} zone={timeZone} /> : '—'}</td>
              </tr>
            ))}
          </tbody>
        </Table>
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
      <RefreshWhilePending pending={messages.some((m) => m.status === 'queued' || m.status === 'sending')} />
    </section>
  );
}
