import { describe, expect, it } from 'vitest';
import { completeCheckIn } from '../stays/complete-check-in';
import { bookRoom, createBookableTenant, TEST_ACTOR } from '../testing/fixtures';
import { auditCsv, csvField, listAuditEvents } from './list-audit-events';

describe('the audit trail', () => {
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

  it('defuses spreadsheet formulas in CSV fields', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField(null)).toBe('""');
  });
});
