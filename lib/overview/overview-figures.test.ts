import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, createTenantGraph } from '../../tooling/testing/fixtures';
import { overviewFigures } from './overview-figures';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

/** A tenant with a nightly facility in Tokyo and one in London (UTC in December), two rooms each, and an archived room. */
async function twoZoneTenant() {
  const tenantId = randomUUID();
  const q = (sql: string, params: unknown[]) => admin.query(sql, params);
  await q('insert into tenants (id, name) values ($1, $2)', [tenantId, `Overview ${randomBytes(3).toString('hex')}`]);
  const facility = async (name: string, zone: string) => {
    const id = randomUUID();
    await q(
      `insert into facilities (tenant_id, id, name, time_zone, check_in_time, check_out_time) values ($1, $2, $3, $4, '15:00', '10:00')`,
      [tenantId, id, name, zone],
    );
    return id;
  };
  const room = async (facilityId: string, label: string, archived = false) => {
    const id = randomUUID();
    await q(
      `insert into rooms (tenant_id, id, facility_id, label, archived_at) values ($1, $2, $3, $4, case when $5 then now() end)`,
      [tenantId, id, facilityId, label, archived],
    );
    return id;
  };
  const tokyo = await facility('Tokyo', 'Asia/Tokyo');
  const london = await facility('London', 'Europe/London');
  const rooms = {
    t1: await room(tokyo, '101'),
    t2: await room(tokyo, '102'),
    l1: await room(london, '201'),
    l2: await room(london, '202'),
  };
  await room(london, '299', true);
  return { tenantId, tokyo, london, rooms };
}

async function reservation(
  tenantId: string,
  roomId: string,
  startsAt: string,
  endsAt: string,
  options: { status?: string; guestName?: string | null; label?: string } = {},
) {
  const id = randomUUID();
  let guestId: string | null = null;
  if (options.guestName !== null) {
    guestId = randomUUID();
    await admin.query('insert into guests (tenant_id, id, name) values ($1, $2, $3)', [
      tenantId,
      guestId,
      options.guestName ?? 'Guest',
    ]);
  }
  await admin.query(
    `insert into reservations (tenant_id, id, room_id, guest_id, starts_at, ends_at, status, source, room_label_snapshot, guest_ref_snapshot)
     values ($1, $2, $3, $4, $5, $6, $7, 'api', $8, 'ref')`,
    [tenantId, id, roomId, guestId, startsAt, endsAt, options.status ?? 'confirmed', options.label ?? 'R'],
  );
  return { id, guestId };
}

describe('the overview figures', () => {
  it("count tonight's occupancy per facility in its own time zone, on either side of Tokyo's midnight", async () => {
    const { tenantId, tokyo, london, rooms } = await twoZoneTenant();
    // Tokyo's night of 1 December: 06:00Z on the 1st to 01:00Z on the 2nd.
    await reservation(tenantId, rooms.t1, '2026-12-01T06:00:00Z', '2026-12-02T01:00:00Z');
    // Tokyo's night of 2 December.
    await reservation(tenantId, rooms.t2, '2026-12-02T06:00:00Z', '2026-12-03T01:00:00Z');
    // A long stay from the 2nd (before that night's check-in time) to the 20th, with a cancelled booking
    // starting inside it: the long stay still holds the room on the nights after.
    await reservation(tenantId, rooms.t1, '2026-12-02T02:00:00Z', '2026-12-20T01:00:00Z');
    await reservation(tenantId, rooms.t1, '2026-12-03T00:00:00Z', '2026-12-04T01:00:00Z', { status: 'cancelled' });
    // London's night of 1 December (15:00Z → 10:00Z); a cancelled and a held stay never count.
    await reservation(tenantId, rooms.l1, '2026-12-01T15:00:00Z', '2026-12-02T10:00:00Z');
    await reservation(tenantId, rooms.l2, '2026-12-01T15:00:00Z', '2026-12-02T10:00:00Z', { status: 'cancelled' });
    await reservation(tenantId, rooms.l2, '2026-12-01T16:00:00Z', '2026-12-02T09:00:00Z', { status: 'held' });
    // A stay that left London this morning is not tonight's.
    await reservation(tenantId, rooms.l2, '2026-11-30T15:00:00Z', '2026-12-01T10:00:00Z', { status: 'checked_out' });

    const at = async (iso: string) => {
      const figures = await overviewFigures({ tenantId, timeZone: 'Asia/Tokyo', now: new Date(iso) });
      return Object.fromEntries(figures.occupancy.map((f) => [f.facilityId, f]));
    };
    // 23:30 in Tokyo, 14:30 in London: both on the 1st.
    const before = await at('2026-12-01T14:30:00Z');
    expect(before[tokyo]).toMatchObject({ day: '2026-12-01', rooms: 2, occupied: 1 });
    expect(before[london]).toMatchObject({ day: '2026-12-01', rooms: 2, occupied: 1 });
    // 00:30 in Tokyo (the 2nd: the other room and the long stay), still the 1st in London. The archived room is never counted.
    const after = await at('2026-12-01T15:30:00Z');
    expect(after[tokyo]).toMatchObject({ day: '2026-12-02', rooms: 2, occupied: 2 });
    expect(after[london]).toMatchObject({ day: '2026-12-01', rooms: 2, occupied: 1 });
    const later = await at('2026-12-02T15:30:00Z');
    expect(later[tokyo]).toMatchObject({ day: '2026-12-03', occupied: 1 });
    expect((await at('2026-12-20T15:30:00Z'))[tokyo]).toMatchObject({ day: '2026-12-21', occupied: 0 });
  });

  it("counts per local day over 14 days, names unsynced keys by room and guest, and never counts another tenant's rows", async () => {
    const { tenantId, rooms } = await twoZoneTenant();
    const now = new Date('2026-12-01T14:30:00Z'); // 23:30 on the 1st in Tokyo
    // Another tenant with rows of every kind on the same days (and its own open incident, webhook, key).
    const other = await createTenantGraph(admin, 'Other');
    await admin.query(`update check_ins set created_at = $2 where tenant_id = $1`, [other.tenantId, now]);
    await admin.query(`update access_keys set created_at = $2, vendor_sync = 'failed' where tenant_id = $1`, [
      other.tenantId,
      now,
    ]);
    await admin.query(`update webhook_events set received_at = $2, status = 'dead' where tenant_id = $1`, [
      other.tenantId,
      now,
    ]);

    const kenji = await reservation(tenantId, rooms.t1, '2026-11-20T06:00:00Z', '2026-11-21T01:00:00Z', {
      guestName: 'Kenji Sato',
      label: '101',
    });
    const gone = await reservation(tenantId, rooms.t2, '2026-11-20T06:00:00Z', '2026-11-21T01:00:00Z', {
      guestName: 'Mei Ito',
      label: '102',
    });
    const checkIn = async (reservationId: string, at: string) => {
      const id = randomUUID();
      await admin.query(`insert into check_ins (tenant_id, id, reservation_id, created_at) values ($1, $2, $3, $4)`, [
        tenantId,
        id,
        reservationId,
        at,
      ]);
      return id;
    };
    // 15:30Z on 30 Nov is 00:30 on 1 Dec in Tokyo; 14:30Z is 23:30 on 30 Nov. 18 Nov is outside the window.
    await checkIn(kenji.id, '2026-11-30T15:30:00Z');
    await checkIn(gone.id, '2026-11-30T14:30:00Z');
    const key = async (reservationId: string, roomId: string, at: string, sync: string, status = 'pre_issued') => {
      const id = randomUUID();
      await admin.query(
        `insert into access_keys (tenant_id, id, reservation_id, room_id, status, pin, valid_from, expires_at, vendor_sync, created_at)
         values ($1, $2, $3, $4, $5, lpad((floor(random() * 1000000))::int::text, 6, '0'), $6, $6::timestamptz + interval '1 day', $7, $6)`,
        [tenantId, id, reservationId, roomId, status, at, sync],
      );
      return id;
    };
    const failedKey = await key(kenji.id, rooms.t1, '2026-11-18T03:00:00Z', 'failed');
    await key(gone.id, rooms.t2, '2026-11-30T15:30:00Z', 'pending');
    await key(gone.id, rooms.t2, '2026-12-01T01:00:00Z', 'synced', 'expired');
    const event = async (at: string, status: string) =>
      admin.query(
        `insert into webhook_events (tenant_id, provider, dedupe_key, type, payload, received_at, status) values ($1, 'cal', $2, 'BOOKING_CREATED', '{}', $3, $4)`,
        [tenantId, randomUUID(), at, status],
      );
    await event('2026-12-01T10:00:00Z', 'processed');
    await event('2026-12-01T11:00:00Z', 'rejected');
    await event('2026-11-30T16:00:00Z', 'dead'); // the 1st in Tokyo, within 24 hours
    await event('2026-11-30T13:00:00Z', 'failed'); // the 30th, older than 24 hours
    await event('2026-12-01T16:00:00Z', 'failed'); // after `now`: tomorrow, not counted
    await admin.query(
      `insert into incidents (tenant_id, condition_key, kind, severity, summary) values ($1, 'a', 'x', 'critical', 's'), ($1, 'b', 'x', 'warning', 's')`,
      [tenantId],
    );
    await admin.query(
      `insert into incidents (tenant_id, condition_key, kind, summary, resolved_at) values ($1, 'c', 'x', 's', now())`,
      [tenantId],
    );
    // Messages the worker gave up on: one here (a sent one is not counted), one of the other tenant's.
    const message = (tenant: string, reservationId: string, status: string) =>
      admin.query(
        `insert into messages (tenant_id, reservation_id, kind, occasion, to_address, status) values ($1, $2, 'key_link', $3, 'g@example.com', $4)`,
        [tenant, reservationId, randomUUID(), status],
      );
    await message(tenantId, kenji.id, 'failed');
    await message(tenantId, kenji.id, 'sent');
    await message(other.tenantId, other.reservationId, 'failed');
    // The second guest is deleted: the stay remains, the name goes.
    await admin.query('delete from guests where tenant_id = $1 and id = $2', [tenantId, gone.guestId]);

    const figures = await overviewFigures({ tenantId, timeZone: 'Asia/Tokyo', now });
    expect(figures.days).toHaveLength(14);
    expect(figures.days[0]!.day).toBe('2026-11-18');
    expect(figures.days.at(-1)!.day).toBe('2026-12-01');
    const byDay = Object.fromEntries(figures.days.map((d) => [d.day, d]));
    expect(byDay['2026-12-01']).toEqual({
      day: '2026-12-01',
      checkIns: 1,
      keysIssued: 2,
      keysFailed: 0,
      webhooks: 3,
      webhookFailures: 2,
    });
    expect(byDay['2026-11-30']).toMatchObject({ checkIns: 1, keysIssued: 0, webhooks: 1, webhookFailures: 1 });
    expect(byDay['2026-11-18']).toMatchObject({ keysIssued: 1, keysFailed: 1 });
    const total = (k: 'checkIns' | 'keysIssued' | 'webhooks') => figures.days.reduce((n, d) => n + d[k], 0);
    expect([total('checkIns'), total('keysIssued'), total('webhooks')]).toEqual([2, 3, 4]);

    // The other tenant's failed key, dead event and open incident are not ours.
    expect(figures.keys).toMatchObject({ pending: 1, failed: 1 });
    expect(figures.keys.named).toEqual([
      { keyId: failedKey, vendorSync: 'failed', reservationId: kenji.id, roomLabel: '101', guestName: 'Kenji Sato' },
      expect.objectContaining({ vendorSync: 'pending', reservationId: gone.id, roomLabel: '102', guestName: null }),
    ]);
    // Install-wide incidents (opened by other test files running at the same time) count for every tenant;
    // this tenant's own are the rest, and the resolved one is not among them.
    const { open, critical, installWide, installWideCritical } = figures.incidents;
    expect({ open: open - installWide, critical: critical - installWideCritical }).toEqual({ open: 2, critical: 1 });
    expect(figures.webhookFailures24h).toBe(2);
    expect(figures.messagesFailed).toBe(1);

    const theirs = await overviewFigures({ tenantId: other.tenantId, timeZone: 'Asia/Tokyo', now });
    expect(theirs.keys.failed).toBe(1);
    expect(theirs.days.at(-1)).toMatchObject({ checkIns: 1, keysIssued: 1, webhookFailures: 1 });
  });
});
