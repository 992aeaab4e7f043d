import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runInTransaction, sqlLiteral, statement, withTenant } from '../db/tx';
import { AppError } from '../errors';
import { toMinorUnits } from '../i18n/money';
import { z } from 'zod';

export const PROPERTY_PAYMENT_METHODS = ['cash', 'card_terminal'] as const;
export type PropertyPaymentMethod = (typeof PROPERTY_PAYMENT_METHODS)[number];

/**
 * The desk's payment form: the amount typed in the facility currency's major unit (the currency as
 * the page showed it), the method and a note. Messages are catalog keys.
 */
export const ZPaymentFormSchema = z
  .object({
    reservationId: z.uuid('payments.error.notFound'),
    currency: z.string().trim().toLowerCase(),
    amount: z.string().trim(),
    method: z.enum(PROPERTY_PAYMENT_METHODS, 'payments.error.generic'),
    note: z.string().trim().max(500, 'payments.error.tooLong').default(''),
  })
  .transform((form, ctx) => {
    const amountCents = toMinorUnits(form.amount, form.currency);
    if (amountCents === null || amountCents < 1 || amountCents > 100_000_000) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'payments.error.amount' });
      return z.NEVER;
    }
    return {
      reservationId: form.reservationId,
      currency: form.currency,
      amountCents,
      method: form.method,
      note: form.note,
    };
  });

/** A payment as the API answers (API.md `POST /reservations/{id}/payments`). */
export type PaymentView = {
  id: string;
  reservationId: string;
  amountCents: number;
  currency: string;
  method: 'cash' | 'card_terminal' | 'stripe';
  note: string | null;
  createdAt: Date;
};

const PAYMENT_SELECT = {
  id: true,
  reservationId: true,
  amountCents: true,
  currency: true,
  method: true,
  note: true,
  createdAt: true,
} as const;

/**
 * Records a payment taken at the property (cash, card terminal) for one of the tenant's stays, in the
 * facility's currency, in one transaction: the payment row, the stay's `paid_at` on its first payment,
 * and the audit row `reservation.paid` (amount, method). The stay's row is locked first, so a
 * cancellation meanwhile is seen: a cancelled stay is `illegal_transition`; another tenant's stay is
 * `not_found`; nothing is written on any refusal.
 */
export async function recordPayment(input: {
  tenantId: string;
  reservationId: string;
  amountCents: number;
  method: PropertyPaymentMethod;
  note?: string | null;
  /** The currency the amount was typed in, when a person typed it: it must be the facility's. */
  currency?: string;
  actor: Actor;
}): Promise<PaymentView> {
  const { tenantId, reservationId, amountCents, method, actor } = input;
  const note = input.note?.trim() || null;
  return asService({ tenantId }, async (tx) => {
    const [stays] = await runInTransaction(tx, [
      statement<{ status: string; roomId: string; currency: string }>(
        `select r.status::text as status, r.room_id::text as "roomId", f.currency
           from reservations r
           join rooms m on m.tenant_id = r.tenant_id and m.id = r.room_id
           join facilities f on f.tenant_id = m.tenant_id and f.id = m.facility_id
          where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.id = ${sqlLiteral(reservationId, 'uuid')}
          for update of r`,
      ),
    ]);
    if (stays.length !== 1) throw new AppError('not_found', 'No such reservation.');
    const stay = stays[0]!;
    if (stay.status === 'cancelled')
      throw new AppError('illegal_transition', 'This stay was cancelled: no payment can be recorded for it.', {
        from: 'cancelled',
      });
    if (input.currency !== undefined && input.currency !== stay.currency)
      throw new AppError('conflict', 'The facility’s currency has changed: reload the page.', {
        currency: stay.currency,
      });
    const payment = await tx.payment.create({
      data: {
        tenantId,
        reservationId,
        amountCents,
        currency: stay.currency,
        method,
        note,
        recordedBy: actor.type === 'user' ? actor.id : null,
      },
      select: PAYMENT_SELECT,
    });
    await tx.reservation.updateMany({
      where: { tenantId, id: reservationId, paidAt: null },
      data: { paidAt: new Date() },
    });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'reservation.paid',
      subject: { type: 'reservation', id: reservationId },
      roomId: stay.roomId,
      metadata: { amount: amountCents, currency: stay.currency, method, paymentId: payment.id },
    });
    return payment;
  });
}

/**
 * One of the tenant's stays as its payments panel shows it: whether it is paid (and not refunded),
 * the facility's currency and its payments, oldest first; null for another tenant's or no stay.
 */
export async function reservationPayments(input: {
  tenantId: string;
  reservationId: string;
}): Promise<{ paid: boolean; currency: string; payments: PaymentView[] } | null> {
  const { tenantId, reservationId } = input;
  return withTenant({ tenantId }, async (tx) => {
    const [stays, payments] = await Promise.all([
      tx.reservation.findMany({
        where: { tenantId, id: reservationId },
        select: { paidAt: true, refundedAt: true, room: { select: { facility: { select: { currency: true } } } } },
      }),
      tx.payment.findMany({
        where: { tenantId, reservationId },
        select: PAYMENT_SELECT,
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      }),
    ]);
    if (stays.length !== 1) return null;
    const stay = stays[0]!;
    return {
      paid: stay.paidAt !== null && stay.refundedAt === null,
      currency: stay.room.facility.currency,
      payments,
    };
  });
}
