import { asService } from '../db/tx';

/** The expiry sweep: every live key past its end becomes expired, audited, with its removal queued. */
export async function expireDueKeys(limit = 500): Promise<number> {
  const rows = await asService((tx) => tx.$queryRaw<{ n: number }[]>`select expire_due_keys(${limit}::int) as n`);
  return rows[0]?.n ?? 0;
}
