import { asService, runInTransaction, sqlLiteral, statement } from '../db/tx';

/** The first-run steps, in the order a new manager takes them. */
export const SETUP_STEPS = ['facility', 'rooms', 'doors', 'channels', 'payments', 'staff'] as const;
export type TSetupStep = (typeof SETUP_STEPS)[number];

/** Each step and whether the tenant's data shows it done. */
export type SetupChecklist = {
  steps: { step: TSetupStep; done: boolean }[];
  allDone: boolean;
  /** The tenant's first facility (its page holds the booking site and the payment option), or null. */
  facilityId: string | null;
};

/**
 * The first-run checklist of a tenant, each step ticked from its rows (never from a flag someone
 * sets): a facility; a room in use; a door — a room in use with a lock; a booking channel — a booking
 * source, a published booking site or an iCal feed; payments — a connected Stripe account, or a
 * facility whose payment was chosen (online or at the property, or `none` saved as a choice); staff —
 * another active member or an open invitation. One read, as the service (invitations are not the
 * staff role's to read), filtered by the tenant.
 */
export async function setupChecklist({ tenantId }: { tenantId: string }): Promise<SetupChecklist> {
  const t = sqlLiteral(tenantId, 'uuid');
  const [rows] = await asService({ tenantId }, (tx) =>
    runInTransaction(tx, [
      statement<Record<TSetupStep, boolean> & { facility_id: string | null }>(`select
        (select f.id from facilities f where f.tenant_id = ${t} order by f.created_at, f.id limit 1) as facility_id,
        exists (select 1 from facilities f where f.tenant_id = ${t}) as facility,
        exists (select 1 from rooms r where r.tenant_id = ${t} and r.archived_at is null) as rooms,
        exists (select 1 from room_locks rl join rooms r on r.tenant_id = rl.tenant_id and r.id = rl.room_id
                 where rl.tenant_id = ${t} and r.archived_at is null) as doors,
        exists (select 1 from booking_sources b where b.tenant_id = ${t})
          or exists (select 1 from facilities f where f.tenant_id = ${t} and f.published_at is not null)
          or exists (select 1 from ical_feeds i where i.tenant_id = ${t}) as channels,
        exists (select 1 from tenants x where x.id = ${t} and x.stripe_account_id is not null)
          or exists (select 1 from facilities f where f.tenant_id = ${t}
                      and (f.payment_mode <> 'none' or f.payment_chosen_at is not null)) as payments,
        (select count(*) from memberships m where m.tenant_id = ${t} and m.deactivated_at is null) > 1
          or exists (select 1 from staff_invitations i where i.tenant_id = ${t}
                      and i.accepted_at is null and i.ended_at is null and i.expires_at > now()) as staff`),
    ]),
  );
  const row = rows[0]!;
  const steps = SETUP_STEPS.map((step) => ({ step, done: row[step] }));
  return { steps, allDone: steps.every((s) => s.done), facilityId: row.facility_id };
}
