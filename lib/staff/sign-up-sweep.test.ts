import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../tooling/testing/fixtures';
import { sweepSignUps } from './sign-up';

// A sign-up nobody completed keeps no password hash once its link is dead, and is gone a week after it expired.
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
    `insert into sign_ups (id, token_hash, email, organisation_name, facility_name, time_zone, password_hash,
                           created_at, expires_at, ended_at, used_at)
     values ($1, $2, $3, 'Org', 'Main', 'Asia/Tokyo', case when $5 then null else 'scrypt$x' end,
             now() - make_interval(hours => $4), now() - make_interval(hours => $4) + interval '24 hours',
             case when $6 then now() else null end, case when $5 then now() else null end)`,
    [id, randomBytes(32), `sweep-${id}@example.com`, createdHoursAgo, extra.used ?? false, extra.ended ?? false],
  );
  return id;
}
const row = async (id: string) =>
  (await admin.query(`select password_hash from sign_ups where id = $1`, [id])).rows[0] as
    { password_hash: string | null } | undefined;

describe('the sign-up sweep', () => {
  it('clears the hash of dead links, removes week-old ones, and keeps live and used ones', async () => {
    const live = await signUp(1);
    const replaced = await signUp(2, { ended: true });
    const expired = await signUp(30);
    const old = await signUp(24 * 9);
    const used = await signUp(24 * 9, { used: true });
    const outcome = await sweepSignUps();
    expect(outcome.cleared).toBeGreaterThanOrEqual(2);
    expect(outcome.removed).toBeGreaterThanOrEqual(1);
    expect(await row(live)).toEqual({ password_hash: 'scrypt$x' });
    expect(await row(replaced)).toEqual({ password_hash: null });
    expect(await row(expired)).toEqual({ password_hash: null });
    expect(await row(old)).toBeUndefined();
    expect(await row(used)).toEqual({ password_hash: null });
  });
});
