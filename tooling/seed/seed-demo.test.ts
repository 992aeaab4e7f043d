import { describe, expect, it } from 'vitest';
import { adminClient } from '../testing/fixtures';
import { seedDemo } from './seed-demo';

/**
 * Every table as its row count and a digest of its rows, computed in PostgreSQL: the test database also holds what
 * earlier test files wrote (passport photos of megabytes among them), which compared row by row in JavaScript took
 * longer than the test may.
 */
async function snapshot(): Promise<Record<string, { rows: number; digest: string }>> {
  const admin = await adminClient();
  try {
    const { rows: tables } = await admin.query<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' and relname <> '_prisma_migrations' order by 1`,
    );
    const result: Record<string, { rows: number; digest: string }> = {};
    for (const { relname } of tables) {
      const { rows } = await admin.query<{ rows: number; digest: string }>(
        `select count(*)::int as rows, md5(coalesce(string_agg(md5(t::text), '' order by md5(t::text)), '')) as digest
           from public.${admin.escapeIdentifier(relname)} t`,
      );
      result[relname] = rows[0]!;
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
    expect(first.tenants!.rows).toBeGreaterThanOrEqual(2);
    expect(first.reservations!.rows).toBeGreaterThanOrEqual(2);
    await seedDemo(now);
    expect(await snapshot()).toEqual(first);
  });

  it('publishes Sakura’s inn at /b/demo and its meeting rooms at /b/demo-hourly, every room of a priced type', async () => {
    const result = await seedDemo(new Date('2026-12-01T03:00:00Z'));
    expect(result.bookingSites).toEqual([
      expect.stringMatching(/\/b\/demo$/),
      expect.stringMatching(/\/b\/demo-hourly$/),
    ]);
    const admin = await adminClient();
    try {
      const { rows } = await admin.query(
        `select f.slug, f.booking_unit::text as unit, f.payment_mode::text as payment, f.terms_text <> '' as terms,
                string_agg(distinct t.name || ' ' || t.weekday_cents || '/' || coalesce(t.weekend_cents, 0), ', ' order by t.name || ' ' || t.weekday_cents || '/' || coalesce(t.weekend_cents, 0)) as types,
                count(r.id) filter (where r.room_type_id is null)::int as untyped
           from facilities f join room_types t on t.facility_id = f.id join rooms r on r.facility_id = f.id
          where f.published_at is not null and f.slug in ('demo', 'demo-hourly')
          group by f.slug, f.booking_unit, f.payment_mode, f.terms_text order by f.slug`,
      );
      expect(rows).toEqual([
        {
          slug: 'demo',
          unit: 'night',
          payment: 'online',
          terms: true,
          types: 'Standard Double 12000/15000, Twin 14000/17000',
          untyped: 0,
        },
        {
          slug: 'demo-hourly',
          unit: 'hour',
          payment: 'at_property',
          terms: true,
          types: 'Meeting room 3000/3500',
          untyped: 0,
        },
      ]);
    } finally {
      await admin.end();
    }
  });
});
