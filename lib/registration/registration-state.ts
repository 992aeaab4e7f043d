/** What the guest page says of the register: not kept by the facility, still to fill in, or done. */
export type RegistrationState = 'not_required' | 'missing' | 'complete';

/**
 * The register's state of a stay, as a statement for the link's own read (one round trip): the
 * facility's mode and `app_registration_complete`, both readable by the guest role for its own stay.
 */
export const REGISTRATION_STATE_SQL = `select f.registration::text as mode,
         app_registration_complete(gl.tenant_id, gl.reservation_id) as complete
    from guest_links gl
    join reservations r on r.tenant_id = gl.tenant_id and r.id = gl.reservation_id
    join rooms ro on ro.tenant_id = r.tenant_id and ro.id = r.room_id
    join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id`;

/** The state of the rows `REGISTRATION_STATE_SQL` read (none: the link shows no live stay). */
export function registrationStateOf(rows: Record<string, unknown>[]): RegistrationState {
  const row = rows[0] as { mode?: string; complete?: boolean } | undefined;
  if (!row || row.mode !== 'jp') return 'not_required';
  return row.complete ? 'complete' : 'missing';
}
