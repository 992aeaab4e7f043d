import { describe, expect, it } from 'vitest';
import {
  actionsOfGroup,
  auditActionQuery,
  auditApiSearch,
  auditDayRange,
  auditUrlSearch,
  parseAuditUrlFilters,
  zonedDayStart,
} from './audit-filters';

describe('parseAuditUrlFilters', () => {
  it('keeps well-formed filters and drops malformed ones', () => {
    const filters = parseAuditUrlFilters({
      action: 'key.revoked',
      actor: '  Desk ',
      subjectId: 'not-a-uuid',
      roomId: '6F9619FF-8B86-D011-B42D-00C04FC964FF',
      from: '2026-02-30',
      to: ['2026-11-30', '2026-12-01'],
    });
    expect(filters).toEqual({
      action: 'key.revoked',
      actor: 'Desk',
      subjectId: '',
      roomId: '6f9619ff-8b86-d011-b42d-00c04fc964ff',
      from: '',
      to: '2026-11-30',
    });
    expect(parseAuditUrlFilters(new URLSearchParams('action=drop.tables')).action).toBe('');
  });

  it('round-trips through the page URL, leaving empty filters out', () => {
    const filters = parseAuditUrlFilters({ action: 'key.revoked', from: '2026-11-01' });
    expect(auditUrlSearch(filters)).toBe('action=key.revoked&from=2026-11-01');
    expect(parseAuditUrlFilters(new URLSearchParams(auditUrlSearch(filters)))).toEqual(filters);
  });
});

describe('auditDayRange', () => {
  it('turns calendar days into instants in the facility zone, the last day inclusive', () => {
    expect(zonedDayStart('2026-11-30', 'Asia/Tokyo').toISOString()).toBe('2026-11-29T15:00:00.000Z');
    const range = auditDayRange({ from: '2026-11-30', to: '2026-11-30' }, 'Asia/Tokyo');
    expect(range.from?.toISOString()).toBe('2026-11-29T15:00:00.000Z');
    expect(range.to?.toISOString()).toBe('2026-11-30T15:00:00.000Z');
  });

  it('handles zones far from UTC and DST changes', () => {
    expect(zonedDayStart('2026-06-01', 'Pacific/Kiritimati').toISOString()).toBe('2026-05-31T10:00:00.000Z');
    expect(zonedDayStart('2026-06-01', 'Pacific/Pago_Pago').toISOString()).toBe('2026-06-01T11:00:00.000Z');
    // The day clocks go forward in New York is 23 hours long.
    const range = auditDayRange({ from: '2026-03-08', to: '2026-03-08' }, 'America/New_York');
    expect(range.from?.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(range.to?.toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('builds the endpoint query with ISO instants', () => {
    const search = auditApiSearch(parseAuditUrlFilters({ action: 'key.revoked', to: '2026-11-30' }), 'UTC', {
      limit: '50',
    });
    expect(search).toBe('action=key.revoked&to=2026-12-01T00%3A00%3A00.000Z&limit=50');
  });
});

describe('action groups', () => {
  it('keeps a group in the URL and stands for every listed action of its family', () => {
    expect(parseAuditUrlFilters({ action: 'door.*' }).action).toBe('door.*');
    expect(parseAuditUrlFilters({ action: 'key.*' }).action).toBe('');
    expect(actionsOfGroup('door.*')).toContain('door.opened');
    expect(actionsOfGroup('door.*').every((action) => action.startsWith('door.'))).toBe(true);
    expect(auditActionQuery('door.*')).toEqual({ actions: actionsOfGroup('door.*') });
    expect(auditActionQuery('key.revoked')).toEqual({ action: 'key.revoked' });
    expect(auditActionQuery('')).toEqual({});
    expect(auditApiSearch(parseAuditUrlFilters({ action: 'door.*' }), 'UTC')).toBe('action=door.*');
  });
});
