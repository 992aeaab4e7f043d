import { runStatements, serviceStatement, sqlLiteral, statement } from '../db/tx';

/**
 * Erases every guest register whose retention (its stay's end plus three years) has ended, tenant by
 * tenant (`app_registration_sweep`, each stay's erasure audited `registration.erased`). Returns how many
 * stays' registers went. The worker's cron runs it daily.
 */
export async function sweepGuestRegisters(): Promise<number> {
  const tenants = await serviceStatement(
    statement<{ tenant_id: string }>(`select distinct tenant_id from guest_registrations where retain_until <= now()`),
    [],
  );
  let swept = 0;
  for (const { tenant_id: tenantId } of tenants) {
    const [rows] = await runStatements({ role: 'app_service', tenantId }, [
      statement<{ swept: number }>(`select app_registration_sweep(${sqlLiteral(tenantId, 'uuid')}) as swept`),
    ]);
    swept += rows[0]?.swept ?? 0;
  }
  return swept;
}
