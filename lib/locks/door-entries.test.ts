import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { seamEvent, sendSeam } from '../../tooling/testing/seam-webhooks';
import { newSvixSecret } from '../../tooling/testing/svix';
import { deleteGuest } from '../guests/delete-guest';
import { setProviderSecret } from '../secrets/provider-secrets';
import { completeCheckIn } from '../stays/complete-check-in';
import { processWebhookEvent } from '../webhooks/process-event';
import { listDoorEntries, recordDoorEntry } from './door-entries';

// The door's own record (issue 33): Seam's signed lock.unlocked / lock.locked events become entries, once per Seam
// event id within the tenant, naming the key whose code is on that lock; a stay's first opening by its guest's code
// marks it arrived; entries outlive the guest's personal data and are never changed.
let admin: pg.Client;
type SeamSite = Awaited<ReturnType<typeof seamSite>>;
let site: SeamSite;
let other: SeamSite;

/** A tenant whose room's door is a Seam lock, with a checked-in stay whose code Seam knows as `codeId`. */
async function seamSite() {
  const secret = newSvixSecret();
  const tenant = await createBookableTenant({ rooms: 1, lockDevices: false, name: 'Entries' });
  await setProviderSecret({ tenantId: tenant.tenantId, provider: 'seam_webhook', value: secret, actor: TEST_ACTOR });
  const deviceId = randomUUID();
  const roomId = tenant.roomIds[0]!;
  const lockId = (
    await admin.query<{ id: string }>(
      `with l as (insert into locks (tenant_id, provider, account, device_id, name) values ($1, 'seam', $4, $2, 'Front door') returning id)
       insert into room_locks (tenant_id, room_id, lock_id) select $1, $3, id from l returning lock_id as id`,
      [tenant.tenantId, deviceId, roomId, `acct:${randomBytes(32).toString('hex')}`],
    )
  ).rows[0]!.id;
  const booked = await bookRoom({ tenantId: tenant.tenantId, roomId, startsInHours: -1 });
  const checkIn = await completeCheckIn({
    tenantId: tenant.tenantId,
    reservationId: booked.reservationId,
    actor: TEST_ACTOR,
  });
  const codeId = randomUUID();
  await admin.query(
    `update key_lock_codes set code_id = $3, state = 'set' where tenant_id = $1 and key_id = $2 and lock_id = $4`,
    [tenant.tenantId, checkIn.key.id, codeId, lockId],
  );
  return { ...tenant, secret, deviceId, lockId, roomId, codeId, keyId: checkIn.key.id, ...booked };
}

/** Delivers a signed Seam event and processes it as the worker would. */
async function deliver(to: SeamSite, body: Record<string, unknown>, signedBy = to) {
  const response = await sendSeam(to.tenantId, body, { secret: signedBy.secret });
  const rows = await admin.query<{ id: string }>(
    `select id from webhook_events where tenant_id = $1 and status = 'received' order by received_at`,
    [to.tenantId],
  );
  for (const row of rows.rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
  return response;
}

const entriesOf = async (tenantId: string) =>
  (
    await admin.query(
      `select provider_event_id, kind, method, lock_id, key_id, user_id from door_entries where tenant_id = $1 order by occurred_at, id`,
      [tenantId],
    )
  ).rows;

const openedAudits = async (tenantId: string) =>
  (
    await admin.query(
      `select actor_type, actor_id, actor_label, subject_type, subject_id, room_id, metadata from audit_events
        where tenant_id = $1 and action = 'door.opened' order by occurred_at, id`,
      [tenantId],
    )
  ).rows;

beforeAll(async () => {
  admin = await adminClient();
  site = await seamSite();
  other = await seamSite();
});
afterAll(async () => {
  await admin.end();
});

describe('door entries from Seam', () => {
  it('stores a signed lock.unlocked once, naming the key whose code opened the door, and marks the stay arrived', async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const event = seamEvent('lock.unlocked', {
      device_id: site.deviceId,
      access_code_id: site.codeId,
      method: 'keycode',
      occurred_at: at,
    });
    expect((await deliver(site, event)).status).toBe(200);
    // Seam delivers the same event again (a new Svix message): still one entry.
    await deliver(site, event);
    expect(await entriesOf(site.tenantId)).toEqual([
      {
        provider_event_id: event.event_id,
        kind: 'unlocked',
        method: 'code',
        lock_id: site.lockId,
        key_id: site.keyId,
        user_id: null,
      },
    ]);
    const stay = await admin.query(`select arrived_at from reservations where tenant_id = $1 and id = $2`, [
      site.tenantId,
      site.reservationId,
    ]);
    expect(stay.rows[0].arrived_at).toEqual(new Date(at));
    const listed = await listDoorEntries({ tenantId: site.tenantId, reservationId: site.reservationId, limit: 10 });
    expect(listed.data).toMatchObject([
      { kind: 'unlocked', method: 'code', keyId: site.keyId, reservationId: site.reservationId, roomId: site.roomId },
    ]);
    // One audit row for the one opening, in the entry's transaction, pointing at the webhook event that reported it.
    const audits = await openedAudits(site.tenantId);
    const stored = await admin.query<{ id: string }>(
      `select id from webhook_events where tenant_id = $1 and payload->>'event_id' = $2 order by received_at limit 1`,
      [site.tenantId, event.event_id],
    );
    expect(audits).toEqual([
      {
        actor_type: 'provider',
        actor_id: stored.rows[0]!.id,
        actor_label: 'seam',
        subject_type: 'lock',
        subject_id: site.lockId,
        room_id: site.roomId,
        metadata: {
          method: 'code',
          keyId: site.keyId,
          reservationId: site.reservationId,
          entryId: listed.data[0]!.id,
          remoteUnlockId: null,
        },
      },
    ]);
  });

  it('records the same provider event once, audited once, when it is recorded twice at once', async () => {
    const eventId = randomUUID();
    const recordInput = (id: string) =>
      ({
        tenantId: site.tenantId,
        provider: 'seam',
        eventId: id,
        deviceId: site.deviceId,
        codeId: null,
        kind: 'unlocked',
        method: 'manual',
        occurredAt: new Date(),
      }) as const;
    const record = () =>
      recordDoorEntry({
        tenantId: site.tenantId,
        provider: 'seam',
        eventId,
        deviceId: site.deviceId,
        codeId: null,
        kind: 'unlocked',
        method: 'manual',
        occurredAt: new Date(),
      });
    const audited = (await openedAudits(site.tenantId)).length;
    const results = await Promise.all([record(), record(), record(), record()]);
    expect(results.filter((r) => r && !r.duplicate)).toHaveLength(1);
    expect(new Set(results.map((r) => r!.entryId)).size).toBe(1);
    expect((await entriesOf(site.tenantId)).filter((e) => e.provider_event_id === eventId)).toHaveLength(1);
    // One opening, one door.opened row, however many recorded it at once.
    const audits = await openedAudits(site.tenantId);
    expect(audits.length).toBe(audited + 1);
    expect(audits.at(-1)!.metadata).toMatchObject({ method: 'manual', keyId: null, entryId: results[0]!.entryId });
    // A locking is an entry, not an opening: no audit row.
    await recordDoorEntry({ ...recordInput(randomUUID()), kind: 'locked' });
    expect((await openedAudits(site.tenantId)).length).toBe(audited + 1);
  });

  it('records nothing for another tenant’s device, and names no key for another lock’s or tenant’s code', async () => {
    const before = await entriesOf(site.tenantId);
    const theirs = await entriesOf(other.tenantId);
    // Signed with the site's own secret, naming the other tenant's device: nothing, anywhere.
    await deliver(site, seamEvent('lock.unlocked', { device_id: other.deviceId, access_code_id: other.codeId }));
    expect(await entriesOf(site.tenantId)).toEqual(before);
    expect(await entriesOf(other.tenantId)).toEqual(theirs);
    // Signed with the other tenant's secret to this tenant's route: refused before anything is stored.
    const forged = await sendSeam(site.tenantId, seamEvent('lock.unlocked', { device_id: site.deviceId }), {
      secret: other.secret,
    });
    expect(forged.status).toBe(400);
    expect(await entriesOf(site.tenantId)).toEqual(before);
    // On the site's own lock, the other tenant's code names nobody: an opening, no key.
    await deliver(site, seamEvent('lock.unlocked', { device_id: site.deviceId, access_code_id: other.codeId }));
    const after = await entriesOf(site.tenantId);
    expect(after.slice(before.length)).toMatchObject([{ kind: 'unlocked', method: 'code', key_id: null }]);
  });

  it('keeps every entry when the guest is deleted, and no role may change or remove one', async () => {
    const before = await entriesOf(site.tenantId);
    await deleteGuest({ tenantId: site.tenantId, guestId: site.guestId, actor: TEST_ACTOR });
    expect(await entriesOf(site.tenantId)).toEqual(before);
    const listed = await listDoorEntries({ tenantId: site.tenantId, roomId: site.roomId, limit: 50 });
    expect(listed.data.length).toBe(before.length);
    await expect(
      admin.query(`update door_entries set method = 'app' where tenant_id = $1`, [site.tenantId]),
    ).rejects.toMatchObject({ code: 'UA001' });
    await expect(admin.query(`delete from door_entries where tenant_id = $1`, [site.tenantId])).rejects.toMatchObject({
      code: 'UA001',
    });
    // A key is named only for an opening by code (PostgreSQL's check).
    await expect(
      admin.query(
        `insert into door_entries (tenant_id, provider, provider_event_id, lock_id, kind, method, occurred_at, key_id)
         values ($1, 'seam', $2, $3, 'unlocked', 'manual', now(), $4)`,
        [site.tenantId, randomUUID(), site.lockId, site.keyId],
      ),
    ).rejects.toMatchObject({ code: '23514' });
    // Another tenant's key or lock cannot be named (composite foreign keys).
    await expect(
      admin.query(
        `insert into door_entries (tenant_id, provider, provider_event_id, lock_id, kind, method, occurred_at, key_id)
         values ($1, 'seam', $2, $3, 'unlocked', 'code', now(), $4)`,
        [site.tenantId, randomUUID(), site.lockId, other.keyId],
      ),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('pages newest first with a cursor and filters by time', async () => {
    const all = await listDoorEntries({ tenantId: site.tenantId, limit: 200 });
    expect(all.data.length).toBeGreaterThanOrEqual(3);
    const times = all.data.map((e) => e.occurredAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const first = await listDoorEntries({ tenantId: site.tenantId, limit: 1 });
    const second = await listDoorEntries({ tenantId: site.tenantId, limit: 1, cursor: first.nextCursor! });
    expect([first.data[0]!.id, second.data[0]!.id]).toEqual([all.data[0]!.id, all.data[1]!.id]);
    const none = await listDoorEntries({ tenantId: site.tenantId, limit: 10, to: new Date(Date.now() - 86_400_000) });
    expect(none.data).toEqual([]);
    // The other tenant sees none of them.
    const theirs = await listDoorEntries({ tenantId: other.tenantId, limit: 200 });
    expect(theirs.data.some((e) => all.data.some((mine) => mine.id === e.id))).toBe(false);
  });
});
