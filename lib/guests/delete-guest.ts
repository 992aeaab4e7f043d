import type { Actor } from '../audit/actor';
import { asService, effectStatement, runInTransaction, sqlLiteral, statement, type Tx } from '../db/tx';
import { AppError } from '../errors';
import { redactWebhookPayload } from './redact-webhook-payload';
import { writeAuditEvent } from '../audit/write-audit-event';

export const GUEST_DELETED = 'guest_deleted';

/**
 * Deletes a guest's personal data in one transaction: first revokes the live keys of their current
 * and future reservations (reason `guest_deleted`, audited), then erases the copies of their data
 * in stored webhook payloads (the provider bookings and the Stripe events of their reservations),
 * then removes the guests row. Reservations stay (guest_id becomes null; their pseudonymous
 * snapshots remain), keys stay and every audit row stays; so does the stays' guest register until its
 * retention ends (the audit's `registerKeptUntil`; lib/registration/sweep-registers.ts erases it then). docs/INTERNALS.md lists the places.
 */
export async function deleteGuest({
  tenantId,
  guestId,
  actor,
}: {
  tenantId: string;
  guestId: string;
  actor: Actor;
}): Promise<void> {
  await asService({ tenantId }, (tx) => eraseGuest(tx, { tenantId, guestId, actor }));
}

/** Names compared as a person would type them: spacing and letter case do not matter. */
function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return norm(a) === norm(b);
}

/**
 * The desk's deletion: the guest of one of the tenant's reservations (never a guest id from the
 * form), deleted only when `confirmName` is their name as typed — the check and the deletion in one
 * transaction. `not_found` for another tenant's reservation or one whose guest is already gone.
 */
export async function deleteGuestOfReservation(input: {
  tenantId: string;
  reservationId: string;
  confirmName: string;
  actor: Actor;
}): Promise<'deleted' | 'name_mismatch'> {
  const { tenantId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const [guests] = await runInTransaction(tx, [
      statement<{ id: string; name: string }>(`select g.id, g.name from reservations r
      join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
      where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and r.id = ${sqlLiteral(input.reservationId, 'uuid')} for update of g`),
    ]);
    if (guests.length !== 1) throw new AppError('not_found', 'No such guest.');
    if (!sameName(input.confirmName, guests[0]!.name)) return 'name_mismatch';
    await eraseGuest(tx, { tenantId, guestId: guests[0]!.id, actor });
    return 'deleted';
  });
}

/** The deletion itself, inside the caller's transaction. */
async function eraseGuest(
  tx: Tx,
  { tenantId, guestId, actor }: { tenantId: string; guestId: string; actor: Actor },
): Promise<void> {
  const [guests] = await runInTransaction(tx, [
    statement<{ id: string }>(
      `select id from guests where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and id = ${sqlLiteral(guestId, 'uuid')} for update`,
    ),
  ]);
  if (guests.length !== 1) throw new AppError('not_found', 'No such guest.');
  // Lock the guest's reservations first, as a check-in does: a check-in racing the deletion
  // either finishes before it (and its key is revoked here) or finds the guest gone.
  await runInTransaction(tx, [
    effectStatement(
      `select id from reservations where tenant_id = ${sqlLiteral(tenantId, 'uuid')}
        and guest_id = ${sqlLiteral(guestId, 'uuid')} order by id for update`,
    ),
  ]);
  const [keys] = await runInTransaction(tx, [
    statement<{ id: string }>(`select k.id from access_keys k
    join reservations r on r.tenant_id = k.tenant_id and r.id = k.reservation_id
    where k.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.guest_id = ${sqlLiteral(guestId, 'uuid')}
      and r.ends_at > now()
      and k.status in ('pre_issued', 'active') order by k.created_at`),
  ]);
  for (const key of keys) {
    await runInTransaction(tx, [
      effectStatement(`select id from app_end_key(${sqlLiteral(tenantId, 'uuid')},
        ${sqlLiteral(key.id, 'uuid')}, 'revoked', ${sqlLiteral(GUEST_DELETED, 'text')},
      ${sqlLiteral(actor.type, 'actor_type')}, ${sqlLiteral(actor.id, 'text')}, ${sqlLiteral(actor.label, 'text')})`),
    ]);
  }
  const refs = await tx.reservation.findMany({
    where: { tenantId, guestId },
    select: { guestRefSnapshot: true },
    take: 1,
  });
  const redacted = await eraseFromWebhookPayloads(tx, { tenantId, guestId });
  // The guest register (Japan's lodging law) is the stays' and stays with them until its retention ends.
  const [kept] = await runInTransaction(tx, [
    statement<{ until: Date | null }>(`select max(g.retain_until) as until from guest_registrations g
    join reservations r on r.tenant_id = g.tenant_id and r.id = g.reservation_id
    where g.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.guest_id = ${sqlLiteral(guestId, 'uuid')}`),
  ]);
  const registerKeptUntil = kept[0]?.until ? new Date(kept[0].until).toISOString() : null;
  await tx.guest.deleteMany({ where: { tenantId, id: guestId } });
  await writeAuditEvent(tx, {
    tenantId,
    actor,
    action: 'guest.deleted',
    subject: { type: 'guest', id: guestId },
    metadata: {
      guestRef: refs[0]?.guestRefSnapshot ?? null,
      revokedKeyIds: keys.map((k) => k.id),
      redactedWebhookEvents: redacted,
      registerKeptUntil,
    },
  });
}

/**
 * The stored webhook events that carry the guest's data: their provider bookings' events (by the
 * booking's external ref, which starts every dedupe key of that booking, or names it as the old or
 * new booking of a reschedule) and the Stripe events of their booking groups' PaymentIntents.
 * Each payload keeps only what processing and a replay need. Returns how many were rewritten.
 */
async function eraseFromWebhookPayloads(
  tx: Tx,
  { tenantId, guestId }: { tenantId: string; guestId: string },
): Promise<number> {
  const [events] = await runInTransaction(tx, [
    statement<{ id: string; provider: 'stripe' | 'calendly' | 'cal' | 'acuity'; payload: unknown }>(`
    with mine as (
      select r.source, r.external_ref, g.payment_intent_id
        from reservations r left join booking_groups g on g.tenant_id = r.tenant_id and g.id = r.booking_group_id
       where r.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and r.guest_id = ${sqlLiteral(guestId, 'uuid')}
    )
    select e.id, e.provider, e.payload from webhook_events e
     where e.tenant_id = ${sqlLiteral(tenantId, 'uuid')} and not coalesce((e.payload->>'redacted')::boolean, false)
       and (exists (select 1 from mine m where m.external_ref is not null and m.source::text = e.provider::text
                      and (starts_with(e.dedupe_key, m.external_ref || ':')
                           or m.external_ref in (e.payload->'payload'->>'old_invitee', e.payload->'payload'->>'new_invitee', e.payload->'payload'->>'rescheduleUid')))
         or exists (select 1 from mine m where m.payment_intent_id is not null and e.provider = 'stripe'
                      and m.payment_intent_id in (e.payload->'data'->'object'->>'id', e.payload->'data'->'object'->>'payment_intent')))
     for update`),
  ]);
  for (const event of events) {
    const payload = JSON.stringify(redactWebhookPayload(event.provider, event.payload));
    await runInTransaction(tx, [
      effectStatement(`update webhook_events set payload = ${sqlLiteral(payload, 'jsonb')}
      where tenant_id = ${sqlLiteral(tenantId, 'uuid')} and id = ${sqlLiteral(event.id, 'uuid')}`),
    ]);
  }
  return events.length;
}
