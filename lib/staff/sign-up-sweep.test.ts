import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { sweepSignUps } from './sign-up';

// A sign-up nobody completed is gone a week after it expired; live, recently dead and used ones stay.
let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function signUp(createdHoursAgo: number, extra: { ended?: boolean; used?: boolean } = {}) {
  const id = randomUUID();
  await admin.query(
    `insert into sign_ups (id, token_hash, email, organisation_name, facility_name, time_zone,
                           created_at, expires_at, ended_at, used_at)
     values ($1, $2, $3, 'Org', 'Main', 'Asia/Tokyo',
             now() - make_interval(hours => $4), now() - make_interval(hours => $4) + interval '24 hours',
             case when $6 then now() else null end, case when $5 then now() else null end)`,
    [id, randomBytes(32), `sweep-${id}@example.com`, createdHoursAgo, extra.used ?? false, extra.ended ?? false],
  );
  return id;
}
const exists = async (id: string) => (await admin.query(`select 1 from sign_ups where id = $1`, [id])).rowCount === 1;

describe('the sign-up sweep', () => {
  it('removes week-old unused ones, and keeps live, recently dead and used ones', async () => {
    const live = await signUp(1);
    const replaced = await signUp(2, { ended: true });
    const expired = await signUp(30);
    const old = await signUp(24 * 9);
    const used = await signUp(24 * 9, { used: true });
    const outcome = await sweepSignUps();
    expect(outcome.removed).toBeGreaterThanOrEqual(1);
    expect(await exists(live)).toBe(true);
    expect(await exists(replaced)).toBe(true);
    expect(await exists(expired)).toBe(true);
    expect(await exists(old)).toBe(false);
    expect(await exists(used)).toBe(true);
  });
});
