/**
 * Puts one key of an end-to-end test's tenant into a state the simulator lock provider cannot reach
 * from the browser, in the running e2e server's database, as the service role scoped to that tenant
 * (the role the worker writes doors with). Run by e2e/helpers.ts (`seedKeyState`) the way
 * e2e/make-tenant.ts is run; prints one JSON object.
 *
 * - `offline-door`: the key's doors hold an offline (algorithmic) code, as on a lock without a bridge.
 *   Revoking the key then leaves them `valid_until_end`.
 * - `backup`: a backup code stands in for the key (kind `backup`, same state and window, its one door
 *   set), with the `key.backup_issued` audit row lib/keys/backup-codes.ts writes, `reason` as its why.
 * - `lock-offline`: the tenant's lock with this device id is offline behind its gateway, as the status
 *   read (every 15 minutes) would record it, and the key's doors failed on it (the worker's last attempt).
 */
import { randomInt } from 'node:crypto';
import { openDatabase } from '../tooling/database/database';

export type SeedKeyStateInput =
  | { op: 'offline-door'; tenantId: string; keyId: string }
  | { op: 'backup'; tenantId: string; keyId: string; reason: string }
  | { op: 'lock-offline'; tenantId: string; keyId: string; deviceId: string };

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as SeedKeyStateInput;
  const database = await openDatabase();
  process.env.APP_DATABASE_URL = database.appUrl;
  const { asService } = await import('../lib/db/tx');
  const { disconnectDb } = await import('../lib/db/client');
  const { tenantId, keyId } = input;
  try {
    const result = await asService({ tenantId }, async (tx) => {
      if (input.op === 'lock-offline') {
        const locks = await tx.$executeRaw`update locks set online = false, offline_reason = 'gateway_offline'
          where tenant_id = ${tenantId}::uuid and device_id = ${input.deviceId}`;
        await tx.$queryRaw`select id from access_keys where tenant_id = ${tenantId}::uuid and id = ${keyId}::uuid for no key update`;
        const doors = await tx.$executeRaw`update key_lock_codes set state = 'failed', error = 'gateway_offline'
          where tenant_id = ${tenantId}::uuid and key_id = ${keyId}::uuid`;
        return { locks, doors };
      }
      if (input.op === 'offline-door') {
        const doors =
          await tx.$executeRaw`update key_lock_codes set offline = true, code_id = coalesce(code_id, 'e2e-offline')
          where tenant_id = ${tenantId}::uuid and key_id = ${keyId}::uuid`;
        return { doors };
      }
      const key = await tx.accessKey.findFirstOrThrow({
        where: { tenantId, id: keyId },
        include: { doors: { include: { lock: true } } },
      });
      if (key.doors.length !== 1) throw new Error('a backup stands in for a key with one door');
      const door = key.doors[0]!;
      const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const inserted = await tx.$queryRaw<{ id: string }[]>`
        insert into access_keys (tenant_id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at, kind, backup_for)
        values (${tenantId}::uuid, ${key.reservationId}::uuid, null, ${key.roomId}::uuid, ${key.status}::key_status,
                ${pin}, ${key.validFrom}, ${key.expiresAt}, 'backup', ${keyId}::uuid)
        returning id`;
      const backupKeyId = inserted[0]!.id;
      await tx.$executeRaw`insert into key_lock_codes (tenant_id, key_id, lock_id, state, code_id, set_at)
        values (${tenantId}::uuid, ${backupKeyId}::uuid, ${door.lockId}::uuid, 'set', 'e2e-backup', now())`;
      await tx.$executeRaw`select app_audit(${tenantId}::uuid, 'system', null, 'backup codes', 'key.backup_issued', 'access_key',
        ${backupKeyId}::uuid, ${key.roomId}::uuid, ${input.reason},
        ${JSON.stringify({ reservationId: key.reservationId, standsInFor: keyId, lockId: door.lockId, lockName: door.lock.name })}::jsonb)`;
      return { backupKeyId };
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await disconnectDb();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`seed-key-state: ${(error as Error).message ?? String(error)}\n`);
    process.exit(1);
  },
);
