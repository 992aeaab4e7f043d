import { describe, expect, it } from 'vitest';
import { adminClient } from '../testing/fixtures';
import { seedDemo } from './seed-demo';

async function snapshot(): Promise<Record<string, unknown[]>> {
  const admin = await adminClient();
  try {
    const { rows: tables } = await admin.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and relname <> '_prisma_migrations' order by 1`,
    );
    const result: Record<string, unknown[]> = {};
    for (const { relname } of tables) {
      result[relname] = (
        await admin.query(`select * from public.${admin.escapeIdentifier(relname)} order by 1, 2`)
      ).rows;
    }
    return result;
  } finally {
    await admin.end();
  }
}

describe('the demo seed', () => {
  it('leaves the same data when run twice', async () => {
    const now = new Date('2026-12-01T03:00:00Z');
    await seedDemo(now);
    const first = await snapshot();
    expect(first.tenants!.length).toBeGreaterThanOrEqual(2);
    expect(first.reservations!.length).toBeGreaterThanOrEqual(2);
    await seedDemo(now);
    expect(await snapshot()).toEqual(first);
  });
});
