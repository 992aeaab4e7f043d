import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKeyToIncident } from '../incidents/incidents';
import { listIncidents } from '../incidents/list-incidents';
import { asService } from '../db/tx';
import { deleteGuest } from '../guests/delete-guest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { listAuditEvents } from './list-audit-events';
import { listReadableAuditEvents } from './readable-audit-events';
import { reservationTimeline } from './reservation-timeline';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

describe('audit rows and incidents a person can read', () => {
  it('name the room and guest of each row, read now: a deleted guest reads "Deleted account" and no name is stored', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const kenji = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Kenji Sato' });
    const mei = await bookRoom({ tenantId, roomId: roomIds[1]!, guestName: 'Mei Ito' });
    await completeCheckIn({ tenantId, reservationId: kenji.reservationId, actor: TEST_ACTOR });

    const page = await listReadableAuditEvents({ tenantId, limit: 100 });
    const ofKenji = page.data.filter((e) => e.context.reservation?.reservationId === kenji.reservationId);
    // The reservation row, the pre-issued key's rows and the check-in key's rows all name Kenji's stay.
    expect(new Set(ofKenji.map((e) => e.subject.type))).toEqual(new Set(['reservation', 'access_key']));
    expect(ofKenji.map((e) => e.action)).toEqual(expect.arrayContaining(['reservation.created', 'key.issued']));
    for (const e of ofKenji) expect(e.context.reservation).toMatchObject({ roomLabel: '101', guestName: 'Kenji Sato' });
    expect(page.data.find((e) => e.subject.id === mei.reservationId)?.context.reservation).toEqual({
      reservationId: mei.reservationId,
      roomLabel: '102',
      guestName: 'Mei Ito',
    });

    // The names are never in the rows themselves (append-only rows would keep them after deletion).
    const { rows: stored } = await admin.query(
      `select count(*)::int as n from audit_events where tenant_id = $1 and (metadata::text like '%Kenji%' or actor_label like '%Kenji%')`,
      [tenantId],
    );
    expect(stored[0].n).toBe(0);

    await deleteGuest({ tenantId, guestId: kenji.guestId!, actor: TEST_ACTOR });
    const after = await listReadableAuditEvents({ tenantId, subjectId: kenji.reservationId, limit: 100 });
    expect(after.data.length).toBeGreaterThan(0);
    for (const e of after.data)
      expect(e.context.reservation).toEqual({ reservationId: kenji.reservationId, roomLabel: '101', guestName: null });
    const timeline = await reservationTimeline({ tenantId, reservationId: kenji.reservationId });
    expect(timeline.length).toBeGreaterThan(2);
    expect(timeline.every((e) => e.context.reservation?.guestName === null)).toBe(true);

    // The REST shape stays as API.md fixes it: no names there.
    const rest = await listAuditEvents({ tenantId, limit: 5 });
    expect(Object.keys(rest.data[0]!).sort()).toEqual(
      ['action', 'actor', 'id', 'metadata', 'occurredAt', 'reason', 'roomId', 'subject'].sort(),
    );
  });

  it("names the lock and the provider's event a row is about, and never another tenant's records", async () => {
    const mine = await createBookableTenant({ rooms: 1 });
    const theirs = await createBookableTenant({ rooms: 1 });
    const their = await bookRoom({ tenantId: theirs.tenantId, roomId: theirs.roomIds[0]!, guestName: 'Other Guest' });
    const { rows: locks } = await admin.query(`select id, name from locks where tenant_id = $1`, [mine.tenantId]);
    const { rows: theirLocks } = await admin.query(`select id from locks where tenant_id = $1`, [theirs.tenantId]);
    const eventId = randomUUID();
    await admin.query(
      `insert into webhook_events (tenant_id, id, provider, dedupe_key, type, payload, status) values ($1, $2, 'calendly', $3, 'invitee.created', '{}', 'processed')`,
      [mine.tenantId, eventId, randomUUID()],
    );
    const insert = (actorType: string, actorId: string | null, subjectType: string, subjectId: string, metadata = {}) =>
      admin.query(
        `insert into audit_events (tenant_id, actor_type, actor_id, actor_label, action, subject_type, subject_id, room_id, metadata)
         values ($1, $2, $3, 'x', 'test.row', $4, $5, $6, $7) returning id`,
        [mine.tenantId, actorType, actorId, subjectType, subjectId, mine.roomIds[0], JSON.stringify(metadata)],
      );
    const lockRow = (await insert('system', null, 'lock', locks[0].id)).rows[0].id;
    const providerRow = (await insert('provider', eventId, 'room', mine.roomIds[0]!)).rows[0].id;
    // Ids of another tenant's reservation, lock and key, planted in this tenant's rows.
    const crossRow = (
      await insert('provider', randomUUID(), 'access_key', randomUUID(), {
        reservationId: their.reservationId,
        lockId: theirLocks[0].id,
      })
    ).rows[0].id;
    const garbage = (await insert('system', null, 'reservation', randomUUID(), { lockId: "x'; drop table" })).rows[0]
      .id;

    const { data } = await listReadableAuditEvents({ tenantId: mine.tenantId, action: 'test.row', limit: 10 });
    const byId = Object.fromEntries(data.map((e) => [e.id, e.context]));
    expect(byId[lockRow]).toMatchObject({ lock: { id: locks[0].id, name: locks[0].name }, reservation: null });
    expect(byId[providerRow]).toMatchObject({
      webhookEvent: { id: eventId, provider: 'calendly', type: 'invitee.created', status: 'processed' },
      room: { id: mine.roomIds[0], label: '101' },
    });
    expect(byId[crossRow]).toEqual({
      reservation: null,
      lock: null,
      room: { id: mine.roomIds[0], label: '101' },
      webhookEvent: null,
    });
    expect(byId[garbage]).toMatchObject({ reservation: null, lock: null });
  });

  it('names the stays an incident affects by room and guest, and its lock', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const stay = await bookRoom({ tenantId, roomId: roomIds[0]!, guestName: 'Kenji Sato' });
    const { rows: keys } = await admin.query(`select id from access_keys where reservation_id = $1`, [
      stay.reservationId,
    ]);
    const { rows: locks } = await admin.query(`select id, name from locks where tenant_id = $1`, [tenantId]);
    await asService({ tenantId }, (tx) =>
      addKeyToIncident(tx, {
        tenantId,
        keyId: keys[0].id,
        conditionKey: `lock_program:${locks[0].id}`,
        kind: 'lock_program_failed',
        severity: 'warning',
        summary: 'Codes could not be set.',
        detail: { lockId: locks[0].id },
      }),
    );
    const { open } = await listIncidents({ tenantId });
    const incident = open.find((i) => i.kind === 'lock_program_failed')!;
    expect(incident.context).toEqual({
      stays: [{ reservationId: stay.reservationId, roomLabel: '101', guestName: 'Kenji Sato' }],
      moreStays: 0,
      lock: { id: locks[0].id, name: locks[0].name },
      room: null,
      webhookEvent: null,
      eventType: null,
    });
  });
});
