import { z } from 'zod';
import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement } from '../db/tx';
import { AppError } from '../errors';
import { writeAuditEvent } from '../audit/write-audit-event';

/** A guest's details as the desk corrects them; the same rules a booking's guest meets. */
export const ZGuestDetailsSchema = z.object({
  name: z.string().trim().min(1).max(200),
  email: z.email().max(320).nullable(),
  phone: z
    .string()
    .trim()
    .regex(/^[+0-9 ()-]{3,40}$/, 'not a phone number')
    .nullable(),
});
export type TGuestDetails = z.infer<typeof ZGuestDetailsSchema>;

const FIELDS = ['name', 'email', 'phone'] as const;

/**
 * Corrects the name, email and phone of the guest of one of the tenant's reservations (never a
 * guest id from the form), in one transaction: audited `guest.updated` with the names of the fields
 * that changed — never their values — and mail not yet sent to this guest goes to the corrected
 * address (a guest booked without one is sent their link now). The same details again change nothing. `not_found` for another tenant's reservation or
 * one whose guest was deleted; `invalid_request` for details a booking would refuse.
 */
export async function correctGuestOfReservation(
  input: { tenantId: string; reservationId: string; actor: Actor } & TGuestDetails,
): Promise<{ changed: (typeof FIELDS)[number][] }> {
  const { tenantId, reservationId, actor } = input;
  const parsed = ZGuestDetailsSchema.safeParse(input);
  if (!parsed.success)
    throw new AppError('invalid_request', 'Those guest details are not valid.', {
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.join('.'),
        message: issue.message,
        code: issue.code,
      })),
    });
  const details = parsed.data;
  return asService({ tenantId }, async (tx) => {
    const [guests] = await runInTransaction(tx, [
      statement<{ id: string; name: string; email: string | null; phone: string | null }>(`
      select g.id, g.name, g.email, g.phone from reservations r
        join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
       where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
         and r.id = ${sqlLiteral(reservationId, 'uuid')} for update of g`),
    ]);
    const guest = guests[0];
    if (!guest) throw new AppError('not_found', 'No such guest.');
    const changed = FIELDS.filter((field) => guest[field] !== details[field]);
    if (changed.length === 0) return { changed };
    await tx.guest.update({ where: { tenantId_id: { tenantId, id: guest.id } }, data: details });
    if (changed.includes('email')) {
      await runInTransaction(tx, [
        effectStatement(`update messages m set to_address = ${sqlLiteral(details.email, 'text')}, updated_at = now()
         from reservations r
        where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.guest_id = ${sqlLiteral(guest.id, 'uuid')}
          and m.tenant_id = r.tenant_id and m.reservation_id = r.id and m.status in ('queued', 'failed')`),
      ]);
      // A guest booked without an email gets their link now (once: the outbox is unique per occasion).
      await runInTransaction(tx, [
        effectStatement(`select m.id from reservations r
         cross join lateral app_enqueue_guest_message(r.tenant_id, r.id, 'key_link', 'booking') m
        where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.guest_id = ${sqlLiteral(guest.id, 'uuid')}`),
      ]);
    }
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'guest.updated',
      // On the reservation's timeline, where the desk made the correction.
      subject: { type: 'reservation', id: reservationId },
      metadata: { guestId: guest.id, changed },
    });
    return { changed };
  });
}
