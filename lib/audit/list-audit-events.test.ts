import { describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { adminClient, bookRoom, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { auditCsv, csvField, listAuditEvents } from './list-audit-events';

describe('the audit trail', () => {
  it('gives rows time-ordered ids (uuidv7), so a tenant’s new rows append to the primary key instead of landing anywhere', async () => {
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 1 });
    const { reservationId } = await bookRoom({ tenantId, roomId: roomIds[0]! });
    await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    const { rows } = await admin.query(
      `select id::text, uuid_extract_version(id) as version from audit_events where tenant_id = $1 order by occurred_at, id`,
      [tenantId],
    );
    await admin.end();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.version === 7)).toBe(true);
    const ids = rows.map((r) => r.id as string);
    expect(ids).toEqual([...ids].sort());
  });

  it('filters by action and room, pages newest first, and exports exactly the filtered rows as CSV', async () => {
    const { tenantId, roomIds } = await createBookableTenant();
    for (const roomId of roomIds) {
      const { reservationId } = await bookRoom({ tenantId, roomId });
      await completeCheckIn({ tenantId, reservationId, actor: { type: 'user', id: null, label: 'Desk Mai' } });
    }
    const revoked = await listAuditEvents({ tenantId, action: 'key.revoked', limit: 1 });
    expect(revoked.data).toHaveLength(1);
    expect(revoked.data[0]).toMatchObject({
      action: 'key.revoked',
      reason: 'superseded_by_checkin',
      actor: { label: 'Desk Mai' },
    });
    const second = await listAuditEvents({ tenantId, action: 'key.revoked', limit: 1, cursor: revoked.nextCursor! });
    expect(second.data).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect(new Date(second.data[0]!.occurredAt) <= new Date(revoked.data[0]!.occurredAt)).toBe(true);

    const inRoom = await listAuditEvents({ tenantId, roomId: roomIds[0], limit: 100 });
    expect(inRoom.data.length).toBeGreaterThan(0);
    expect(inRoom.data.every((e) => e.roomId === roomIds[0])).toBe(true);

    let csv = '';
    for await (const chunk of auditCsv({ tenantId, action: 'key.revoked' })) csv += chunk;
    const lines = csv.trim().split('\n');
    expect(lines[0]).toBe(
      'occurred_at,action,actor_type,actor_id,actor_label,subject_type,subject_id,room_id,reason,metadata',
    );
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.includes('"key.revoked"') && l.includes('"superseded_by_checkin"'))).toBe(
      true,
    );
    void TEST_ACTOR;
  });

  it('pages through rows sharing one instant exactly once each, newest first, by (occurred_at, id)', async () => {
    const { adminClient } = await import('../../tooling/testing/fixtures');
    const { tenantId } = await createBookableTenant();
    const admin = await adminClient();
    try {
      // Seven rows at one instant and one on each side, written out of order.
      const tie = new Date('2031-05-01T10:00:00.123Z');
      const when = [0, 0, 1, 0, 0, -1, 0, 0, 0].map((d) => new Date(tie.getTime() + d * 1000));
      for (const at of when)
        await admin.query(
          `insert into audit_events (tenant_id, occurred_at, actor_type, actor_label, action, subject_type)
           values ($1, $2, 'system', 'test', 'locks.synced', 'lock')`,
          [tenantId, at],
        );
      const expected = (
        await admin.query(
          `select id from audit_events where tenant_id = $1 and action = 'locks.synced' order by occurred_at desc, id desc`,
          [tenantId],
        )
      ).rows.map((r) => r.id as string);
      expect(expected).toHaveLength(9);
      for (const filter of [{}, { action: 'locks.synced' }]) {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await listAuditEvents({ tenantId, ...filter, limit: 2, cursor });
          seen.push(...page.data.filter((e) => e.action === 'locks.synced').map((e) => e.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(expected);
      }
    } finally {
      await admin.end();
    }
  });

  it('defuses spreadsheet formulas in CSV fields', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField(null)).toBe('""');
  });

  it('defuses full-width formula signs and formulas behind leading spaces, tabs and line breaks', () => {
    for (const text of [
      '＝1+1',
      '＋1',
      '－1',
      '＠SUM(A1)',
      ' =1+1',
      '  +1',
      '\t=1',
      '\r=1',
      '\n=1',
      '\u3000=1',
      '\u00a0@x',
    ])
      expect({ text, field: csvField(text) }).toEqual({ text, field: `"'${text}"` });
    expect(csvField('a = b')).toBe('"a = b"');
    expect(csvField('-')).toBe(`"'-"`);
  });

  it('finds every door event of a room — openings by its guests’ codes, and remote or hand openings of its doors — and exports them', async () => {
    const { recordDoorEntry } = await import('../locks/door-entries');
    const { tenantId, roomIds } = await createBookableTenant({ rooms: 2 });
    const [roomA, roomB] = roomIds as [string, string];
    const { reservationId } = await bookRoom({ tenantId, roomId: roomA, startsInHours: -1 });
    const { key } = await completeCheckIn({ tenantId, reservationId, actor: TEST_ACTOR });
    const admin = await adminClient();
    const doors = (
      await admin.query<{ room_id: string; lock_id: string; device_id: string }>(
        `select d.room_id, l.id as lock_id, l.device_id from room_locks d join locks l on l.tenant_id = d.tenant_id and l.id = d.lock_id
          where d.tenant_id = $1`,
        [tenantId],
      )
    ).rows;
    const doorOf = (roomId: string) => doors.find((d) => d.room_id === roomId)!;
    await admin.query(`update key_lock_codes set code_id = 'code-a', state = 'set' where key_id = $1`, [key.id]);
    await admin.end();
    const open = (roomId: string, method: 'code' | 'manual', codeId: string | null) =>
      recordDoorEntry({
        tenantId,
        provider: 'simulator',
        eventId: `${roomId}-${method}`,
        deviceId: doorOf(roomId).device_id,
        codeId,
        kind: 'unlocked',
        method,
        occurredAt: new Date(),
      });
    await open(roomA, 'code', 'code-a');
    await open(roomA, 'manual', null);
    await open(roomB, 'manual', null);

    const doorEvents = await listAuditEvents({
      tenantId,
      actions: ['door.opened', 'door.unlocked_remotely'],
      limit: 50,
    });
    expect(doorEvents.data.map((e) => e.action)).toEqual(['door.opened', 'door.opened', 'door.opened']);
    // Room A: its guest's opening (the row names the room) and the hand opening of its door (found by the lock).
    const inRoomA = await listAuditEvents({ tenantId, actions: ['door.opened'], roomId: roomA, limit: 50 });
    expect(inRoomA.data.map((e) => e.metadata.method).sort()).toEqual(['code', 'manual']);
    expect(inRoomA.data.every((e) => e.subject.id === doorOf(roomA).lock_id)).toBe(true);
    expect(inRoomA.data.find((e) => e.metadata.method === 'code')).toMatchObject({
      roomId: roomA,
      metadata: { keyId: key.id, reservationId },
    });
    // The room filter still keeps to the room: every other row of room A names it.
    const allOfRoomA = await listAuditEvents({ tenantId, roomId: roomA, limit: 100 });
    expect(allOfRoomA.data.every((e) => e.roomId === roomA || e.subject.id === doorOf(roomA).lock_id)).toBe(true);
    expect(allOfRoomA.data.some((e) => e.subject.id === doorOf(roomB).lock_id)).toBe(false);

    let csv = '';
    for await (const chunk of auditCsv({ tenantId, actions: ['door.opened'], roomId: roomA })) csv += chunk;
    const lines = csv.trim().split('\n').slice(1);
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.includes('"door.opened"') && l.includes(doorOf(roomA).lock_id))).toBe(true);
  });
});
