import { currentDataKey, currentKeyring } from '../secrets/data-key';
import { readGuestStay } from '../guests/get-guest-key';
import { runStatements, serviceStatement, sqlLiteral, statement, type Statement } from '../db/tx';
import { AppError } from '../errors';
import { registerJson, type RegistrationBody } from './registration-input';
import { registrationStateOf, type RegistrationState } from './registration-state';

export type { RegistrationState };

const REPLACE = statement<{ complete: boolean }>(
  `select app_registration_replace($1::uuid, $2::uuid, $3::jsonb, $4::text, $5::int) as complete`,
);

/**
 * `PUT /api/guest/{token}/registration`: replaces the stay's register with `body` (validated by
 * ZRegistrationBodySchema) in one transaction — the passport's number and image encrypted with the
 * current data key inside PostgreSQL, never logged, never in the audit (which counts guests only).
 * Again with the same body gives the same register. `not_found` for an unknown, rotated or expired
 * link; `conflict` where the facility keeps no register or the stay has ended; with `limit`, the
 * request's rate limit is counted in the link's read.
 */
export async function putGuestRegistration(
  token: string,
  body: RegistrationBody,
  limit?: Statement<void>,
): Promise<{ complete: boolean }> {
  const read = await readGuestStay(token, limit);
  if (read?.refused) throw read.refused;
  if (!read) throw new AppError('not_found', 'This key link is unknown or has expired.');
  const { tenantId, reservationId } = read.stay;
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
