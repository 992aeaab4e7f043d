import { currentDataKey, currentKeyring } from '../secrets/data-key';
import { runStatements, serviceStatement, sqlLiteral, statement } from '../db/tx';
import { registerJson, type RegistrationBody } from './registration-input';
import { registrationStateOf, type RegistrationState } from './registration-state';

export type { RegistrationState };

const REPLACE = statement<{ complete: boolean }>(
  `select app_registration_replace($1::uuid, $2::uuid, $3::jsonb, $4::text, $5::int) as complete`,
);

/**
 * A stay's register replaced with `body` (validated by ZRegistrationBodySchema) in one transaction — the
 * passport's number and image encrypted with the current data key inside PostgreSQL, never logged, never in
 * the audit (which counts guests only). Again with the same body gives the same register; `conflict` where the
 * facility keeps no register or the stay has ended. The guest's PUT reaches it through lib/guests/guest-register.ts.
 */
export async function replaceRegistration(
  stay: { tenantId: string; reservationId: string },
  body: RegistrationBody,
): Promise<{ complete: boolean }> {
  const { tenantId, reservationId } = stay;
  const { key, version } = currentDataKey();
  // Bound parameters, not literals: the passport data and the key never appear in the statement's text,
  // which PostgreSQL writes to its log with any error (and bound values are not logged by default).
  const rows = await serviceStatement(REPLACE, [tenantId, reservationId, registerJson(body), key, version]);
  return { complete: rows[0]?.complete === true };
}

/** The keyring as the register's readers take it (`{"1": "…"}`). */
export function keyringJson(): string {
  return JSON.stringify(currentKeyring().keys);
}

/** A stay's register state for the desk (staff of its tenant): only whether it is complete, never who. */
export async function reservationRegisterState(input: {
  tenantId: string;
  reservationId: string;
}): Promise<RegistrationState> {
  const t = sqlLiteral(input.tenantId, 'uuid');
  const r = sqlLiteral(input.reservationId, 'uuid');
  const [rows] = await runStatements({ role: 'app_authenticated', tenantId: input.tenantId }, [
    statement<
      Record<string, unknown>
    >(`select f.registration::text as mode, app_registration_complete(${t}, ${r}) as complete
      from reservations res
      join rooms ro on ro.tenant_id = res.tenant_id and ro.id = res.room_id
      join facilities f on f.tenant_id = ro.tenant_id and f.id = ro.facility_id
     where res.tenant_id = ${t} and res.id = ${r}`),
  ]);
  return registrationStateOf(rows);
}
