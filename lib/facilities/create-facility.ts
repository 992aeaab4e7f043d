import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService } from '../db/tx';
import type { FacilitySettings } from './facility-input';
import { facilityColumns } from './save-facility';

/**
 * Creates a facility of a tenant, with its IANA time zone, how long before a stay its pre-issued
 * keys start working (default 120 minutes) and how long before a stay the desk may check its guest
 * in (default 0: not before the stay starts, unless the desk insists and the room is free). The
 * manager's form gives every other setting too; with an `actor` the creation is audited
 * (`facility.created`). The database's checks have the last word.
 */
export async function createFacility(
  input: { tenantId: string; name: string; timeZone: string; actor?: Actor } & Partial<
    Omit<FacilitySettings, 'name' | 'timeZone'>
  >,
): Promise<{ id: string }> {
  const { tenantId, actor, name, timeZone, ...settings } = input;
  return asService({ tenantId }, async (tx) => {
    const facility = await tx.facility.create({
      data: { tenantId, name, timeZone, ...facilityColumns(withoutUndefined(settings)) },
      select: { id: true },
    });
    if (actor)
      await writeAuditEvent(tx, {
        tenantId,
        actor,
        action: 'facility.created',
        subject: { type: 'facility', id: facility.id },
        metadata: { name, timeZone, bookingUnit: settings.bookingUnit ?? 'night' },
      });
    return facility;
  });
}

/** The fields of a settings object that are given (undefined ones left out). */
export function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
