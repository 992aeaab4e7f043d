import type { Metadata } from 'next';
import { ReservationStatusBadge } from '@/app/desk/_components/reservation-status-badge';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getFormatter } from 'next-intl/server';
import { cache } from 'react';
import QRCode from 'qrcode';
import { z } from 'zod';
import { CheckInProvider } from '@/app/desk/_components/check-in';
import { KeyCard, type BackupIssued } from '@/app/desk/_components/key-card';
import { stillOpensUntilEnd } from '@/app/desk/_components/key-doors';
import { RotateGuestLinkForm } from '@/app/desk/_components/rotate-guest-link';
import { DeleteGuestForm } from '@/app/desk/_components/delete-guest';
import { GuestMessages } from '@/app/desk/_components/guest-messages';
import { ReservationTimeline } from '@/app/desk/_components/reservation-timeline';
import { Arrived } from '@/app/desk/_components/arrived';
import { RoomDoors } from '@/app/desk/_components/room-doors';
import { reservationGuestMessages } from '@/lib/desk/guest-messages';
import { guestTokenFor, guestUrl } from '@/lib/auth/guest-links';
import type { StaffContext } from '@/lib/auth/staff';
import { reservationView } from '@/lib/desk/reservation-page';
import type { OfflineCodeStillValid } from '@/lib/keys/offline-codes-still-valid';
import { getLocale, getT } from '@/i18n/server';
import { requireStaff } from '@/app/_server/staff';
import { CheckInAction } from '@/app/desk/_components/check-in-action';
import { StayActions } from '@/app/desk/_components/stay-actions';
import { instantToZonedLocal } from '@/lib/time/zoned-local';
import { LiveRefresh } from '@/app/desk/_components/live-refresh';
import { ClientMessages } from '@/components/client-messages';
import { TimesIn, When } from '@/components/time';
import { buttonClassName } from '@/components/ui/button';
import { Badge } from '@/components/ui/badge';
import { reservationRegisterState } from '@/lib/registration/guest-register';
import { Table } from '@/components/ui/table';
import { PaymentForm } from '@/app/desk/_components/payment-form';
import { can } from '@/lib/auth/permissions';
import { formatMoney } from '@/lib/i18n/money';
import { reservationPayments } from '@/lib/payments/record-payment';

type Props = { params: Promise<{ id: string }> };

const ZReservationIdSchema = z.uuid();

/** The reservation page's one read for this request (page and metadata share it). */
const loadReservation = cache((staff: StaffContext, id: string) =>
  reservationView({
    tenantId: staff.current.tenantId,
    userId: staff.user.id,
    role: staff.current.role,
    reservationId: id,
  }),
);

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const [{ id }, t] = await Promise.all([params, getT()]);
  const staff = await requireStaff('desk.view', `/desk/reservations/${encodeURIComponent(id)}`);
  const view = ZReservationIdSchema.safeParse(id).success ? await loadReservation(staff, id) : null;
  return { title: view ? t('reservation.title', { room: view.reservation.roomLabelSnapshot }) : t('notFound.title') };
}

/** A reservation at the desk: stay, guest, keys (reveal PIN, revoke), check-in and the guest link with its QR code. */
export default async function ReservationPage({ params }: Props) {
  const { id } = await params;
  const staff = await requireStaff('desk.view', `/desk/reservations/${encodeURIComponent(id)}`);
  if (!ZReservationIdSchema.safeParse(id).success) notFound();
  const [t, format, view, payments, locale, register, guestWrote] = await Promise.all([
    getT(),
    getFormatter(),
    loadReservation(staff, id),
    reservationPayments({ tenantId: staff.current.tenantId, reservationId: id }),
    getLocale(),
    // Only whether the guest register is complete: the desk never reads who (PostgreSQL refuses it).
    reservationRegisterState({ tenantId: staff.current.tenantId, reservationId: id }),
    reservationGuestMessages({ tenantId: staff.current.tenantId, userId: staff.user.id, reservationId: id }),
  ]);
  if (!view || !payments) notFound();

  const { reservation, allows, checkInWindow, checkInProblems, freeRooms, timeline, history, doors, sync } = view;
  // Opening a door is for a stay that holds the room; an ended one's doors are the room page's.
  const stayLive = ['held', 'confirmed', 'checked_in'].includes(reservation.status);
  const { timeZone } = reservation.room.facility;
  const when = (date: Date) => <When at={date} zone={timeZone} />;
  const guestName = reservation.guest?.name ?? t('guest.deletedAccount');
  const now = new Date();
  const keysById = new Map(reservation.accessKeys.map((key) => [key.id, key]));
  // Why each backup was issued, as its audit row recorded it (the door's error at that moment).
  const backupIssued = new Map<string, BackupIssued>(
    timeline
      .filter((event) => event.action === 'key.backup_issued' && event.subject.id !== null)
      .map((event) => [event.subject.id!, { reason: event.reason, at: event.occurredAt }]),
  );
  // Ended keys whose offline code still opens a lock: the check-in panel names the one it superseded.
  const offlineCodes: OfflineCodeStillValid[] = reservation.accessKeys.flatMap((key) => {
    const locks = key.doors.filter((d) => stillOpensUntilEnd(d, key.expiresAt, now)).map((d) => d.lock.name);
    return locks.length > 0
      ? [
          {
            keyId: key.id,
            reservationId: reservation.id,
            issuedAt: key.createdAt,
            until: key.expiresAt,
            locks,
            timeZone,
          },
        ]
      : [];
  });

  const link = reservation.guestLinks[0];
  const linkUrl = link ? guestUrl(guestTokenFor(link.id)) : null;
  const qrSvg = linkUrl ? await QRCode.toString(linkUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) : null;

  return (
    // The page's Client Components: check-in, PIN reveal and revocation, the guest link, guest deletion.
    <ClientMessages only={['checkIn', 'key', 'reservation', 'guestDelete', 'stay', 'payments', 'doors']}>
      <CheckInProvider
        roomLabels={{ [reservation.id]: reservation.roomLabelSnapshot }}
        offlineCodes={offlineCodes}
        liveKeyIds={reservation.accessKeys
          .filter((key) => key.status === 'pre_issued' || key.status === 'active')
          .map((key) => key.id)}
      >
        <LiveRefresh reservationIds={[reservation.id]} initial={sync} />
        <p className="back-link">
          <Link href="/desk">← {t('reservation.back')}</Link>
        </p>
        <header className="page__header page__header--split">
          <div>
            <h1>{t('reservation.title', { room: reservation.roomLabelSnapshot })}</h1>
            <p className="page__lead">
              {reservation.guest ? (
                reservation.guest.name
              ) : (
                <span className="tombstone">{t('guest.deletedAccount')}</span>
              )}
            </p>
            <TimesIn zone={timeZone} />
          </div>
          {allows.checkIn && (
            <CheckInAction
              reservationId={reservation.id}
              window={checkInWindow}
              timeZone={timeZone}
              lockProblems={checkInProblems}
            />
          )}
        </header>

        {/* Rendered whatever the status, so an outcome (checked out…) stays shown once the page catches up. */}
        {allows.changeStay ? (
          <StayActions
            reservationId={reservation.id}
            room={reservation.roomLabelSnapshot}
            guest={guestName}
            timeZone={timeZone}
            startsLocal={instantToZonedLocal(reservation.startsAt, timeZone)}
            endsLocal={instantToZonedLocal(reservation.endsAt, timeZone)}
            checkedIn={reservation.status === 'checked_in'}
            guestDetails={reservation.guest}
            can={allows.stay}
            freeRooms={freeRooms}
          />
        ) : null}

        <div className="detail-grid">
          <section className="card" aria-labelledby="reservation-details-title">
            <h2 id="reservation-details-title">{t('reservation.details')}</h2>
            <dl className="facts">
              <div>
                <dt>{t('reservation.room')}</dt>
                <dd>{reservation.roomLabelSnapshot}</dd>
              </div>
              <div>
                <dt>{t('reservation.facility')}</dt>
                <dd>{reservation.room.facility.name}</dd>
              </div>
              <div>
                <dt>{t('reservation.guest')}</dt>
                <dd>
                  {reservation.guest ? (
                    <>
                      {reservation.guest.name}
                      {reservation.guest.email && <span className="facts__sub">{reservation.guest.email}</span>}
                      {reservation.guest.phone && <span className="facts__sub">{reservation.guest.phone}</span>}
                    </>
                  ) : (
                    <span className="tombstone">{t('guest.deletedAccount')}</span>
                  )}
                </dd>
              </div>
              <div>
                <dt>{t('reservation.arrives')}</dt>
                <dd>{when(reservation.startsAt)}</dd>
              </div>
              <div>
                <dt>{t('reservation.departs')}</dt>
                <dd>{when(reservation.endsAt)}</dd>
              </div>
              <div>
                <dt>{t('reservation.timeZone')}</dt>
                <dd>{timeZone}</dd>
              </div>
              <div>
                <dt>{t('reservations.rate')}</dt>
                <dd data-testid="reservation-rate">
                  {reservation.planNameSnapshot ?? <span className="muted">{t('reservations.noRate')}</span>}
                </dd>
              </div>
              <div>
                <dt>{t('reservation.statusHeading')}</dt>
                <dd>
                  <ReservationStatusBadge status={reservation.status} data-testid="reservation-status" />{' '}
                  {payments.paid ? (
                    <Badge tone="success" data-testid="reservation-paid">
                      {t('payments.paidBadge')}
                    </Badge>
                  ) : (
                    <Badge tone="neutral" data-testid="reservation-unpaid">
                      {t('payments.unpaidBadge')}
                    </Badge>
                  )}
                  {register !== 'not_required' && (
                    <>
                      {' '}
                      <Badge tone={register === 'complete' ? 'success' : 'warning'} data-testid="reservation-register">
                        {t(register === 'complete' ? 'register.complete' : 'register.missing')}
                      </Badge>
                    </>
                  )}
                </dd>
              </div>
              <div>
                <dt>{t('reservation.checkedInAt')}</dt>
                <dd>
                  {reservation.checkIn ? (
                    when(reservation.checkIn.createdAt)
                  ) : (
                    <span className="muted">{t('reservation.notCheckedIn')}</span>
                  )}
                </dd>
              </div>
              <div>
                <dt>{t('reservation.arrivedAt')}</dt>
                <dd data-testid="reservation-arrived">
                  {reservation.arrivedAt ? (
                    <Arrived at={reservation.arrivedAt} zone={timeZone} now={now} />
                  ) : (
                    <span className="muted">{t('reservation.notArrived')}</span>
                  )}
                </dd>
              </div>
            </dl>
          </section>

          <section className="card" aria-labelledby="guest-link-title">
            <h2 id="guest-link-title">{t('reservation.guestLink.title')}</h2>
            {linkUrl && qrSvg && link ? (
              <>
                <p className="muted">{t('reservation.guestLink.intro')}</p>
                <figure className="qr">
                  {/* The SVG is produced by the qrcode library from our own URL, never from user input. */}
                  <div
                    className="qr__code"
                    role="img"
                    aria-labelledby="guest-link-caption"
                    dangerouslySetInnerHTML={{ __html: qrSvg }}
                  />
                  <figcaption id="guest-link-caption" className="qr__caption">
                    {t('reservation.guestLink.caption')}
                  </figcaption>
                </figure>
                <p className="guest-url">
                  <code data-testid="guest-url">{linkUrl}</code>
                </p>
                <p className="muted small">
                  {t('reservation.guestLink.expires', { time: format.dateTime(link.expiresAt, 'stamp', { timeZone }) })}
                </p>
                <a
                  href={linkUrl}
                  className={buttonClassName({ variant: 'secondary' })}
                  target="_blank"
                  rel="noopener noreferrer"
                >
                  {t('reservation.guestLink.open')}
                </a>
              </>
            ) : (
              <p className="empty-state">{t('reservation.guestLink.none')}</p>
            )}
            {allows.rotateGuestLink && <RotateGuestLinkForm reservationId={reservation.id} />}
          </section>
        </div>

        <section className="section card" aria-labelledby="payments-title" data-testid="payments">
          <h2 id="payments-title">{t('payments.title')}</h2>
          {payments.payments.length === 0 ? (
            <p className="empty-state">{t('payments.empty')}</p>
          ) : (
            <Table region={{ labelledBy: 'payments-title' }} data-testid="payments-table">
              <thead>
                <tr>
                  <th scope="col">{t('payments.col.when')}</th>
                  <th scope="col">{t('payments.col.amount')}</th>
                  <th scope="col">{t('payments.col.method')}</th>
                  <th scope="col">{t('payments.col.note')}</th>
                </tr>
              </thead>
              <tbody>
                {payments.payments.map((payment) => (
                  <tr key={payment.id} data-testid="payment-row">
                    <td>{when(payment.createdAt)}</td>
                    <td>{formatMoney(locale, payment.amountCents, payment.currency)}</td>
                    <td>{t(`payments.method.${payment.method}`)}</td>
                    <td>{payment.note ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
          {can(staff.current.role, 'payments.record') && reservation.status !== 'cancelled' && (
            <PaymentForm reservationId={reservation.id} currency={payments.currency} />
          )}
        </section>

        <section className="section" aria-labelledby="keys-title">
          <h2 id="keys-title">{t('reservation.keys.title')}</h2>
          {allows.staffCodes && (
            <p className="muted small">
              <Link href={`/desk/rooms/${reservation.roomId}/staff-codes`} data-testid="staff-codes-link">
                {t('stay.staffCodesLink', { room: reservation.roomLabelSnapshot })}
              </Link>
            </p>
          )}
          {reservation.accessKeys.length === 0 ? (
            <p className="empty-state">{t('reservation.keys.empty')}</p>
          ) : (
            <ul className="key-list">
              {reservation.accessKeys.map((key) => (
                <KeyCard
                  key={key.id}
                  accessKey={key}
                  standsInFor={key.backupFor ? keysById.get(key.backupFor) : undefined}
                  backupIssued={backupIssued.get(key.id)}
                  canReveal={allows.revealPin}
                  canRevoke={allows.revokeKey}
                  reissueNames={{ room: reservation.roomLabelSnapshot, holder: guestName }}
                  zone={timeZone}
                  now={now}
                />
              ))}
            </ul>
          )}
        </section>

        <section className="section card" aria-labelledby="doors-title" data-testid="reservation-doors">
          <h2 id="doors-title">{t('doors.title')}</h2>
          {stayLive && (
            <RoomDoors
              doors={doors}
              room={reservation.roomLabelSnapshot}
              timeZone={timeZone}
              canOpen={can(staff.current.role, 'doors.unlock')}
              t={t}
            />
          )}
          <p>
            <Link href={`/desk/rooms/${reservation.roomId}`} data-testid="room-page-link">
              {t('doors.roomPage', { room: reservation.roomLabelSnapshot })}
            </Link>
          </p>
        </section>

        <GuestMessages staff={staff} reservation={reservation} />

        <ReservationTimeline
          reservationId={reservation.id}
          items={history}
          guestMessages={Object.fromEntries(guestWrote.map((m) => [m.id, m.body]))}
          timeZone={timeZone}
          linkToAuditLog={allows.auditLog}
        />

        {allows.deleteGuest && reservation.guest && (
          <section className="section card danger-zone" aria-label={t('guestDelete.title')}>
            <DeleteGuestForm reservationId={reservation.id} guestName={reservation.guest.name} />
          </section>
        )}
      </CheckInProvider>
    </ClientMessages>
  );
}
