import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listIncidents } from '../../incidents/list-incidents';
import { addBookingSource } from '../../bookings/booking-sources';
import {
  calBooking,
  invitee,
  processAll,
  sendCal,
  sendCalendly,
  tenantWithSources,
} from '../../../tooling/testing/booking-webhooks';
import { adminClient, createBookableTenant } from '../../../tooling/testing/fixtures';
import { processWebhookEvent } from '../process-event';

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const UNMAPPED = 'https://api.calendly.com/event_types/NOT-MAPPED';
const OTHER_UNMAPPED = 'https://api.calendly.com/event_types/ALSO-NOT-MAPPED';

async function incidentsOf(tenantId: string) {
  const { rows } = await admin.query(
    `select condition_key, kind, severity, occurrences, detail, resolved_at from incidents
      where tenant_id = $1 and kind = 'booking_unmapped' order by opened_at, condition_key`,
    [tenantId],
  );
  return rows as {
    condition_key: string;
    kind: string;
    severity: string;
    occurrences: number;
    detail: Record<string, unknown>;
    resolved_at: Date | null;
  }[];
}

async function eventsOf(tenantId: string) {
  const { rows } = await admin.query(
    `select id, status, reason, payload->'payload'->>'uri' as uri from webhook_events where tenant_id = $1 order by received_at, id`,
    [tenantId],
  );
  return rows as { id: string; status: string; reason: string | null; uri: string | null }[];
}

describe('a booking no booking source maps', () => {
  it('opens one incident for five deliveries of the same booking, one per event type, and leaves the event ignored', async () => {
    const t = await tenantWithSources();
    const body = invitee('invitee.created', {
      uri: 'https://api.calendly.com/invitees/UNMAPPED-1',
      start: 48,
      end: 60,
      createdAt: new Date().toISOString(),
      eventType: UNMAPPED,
      name: 'Kenji Sato',
    });
    for (let i = 0; i < 5; i++) expect((await sendCalendly(t.tenantId, body)).status).toBe(200);
    await processAll(admin, t.tenantId);

    const [event] = await eventsOf(t.tenantId);
    expect(await eventsOf(t.tenantId)).toHaveLength(1);
    expect(event).toMatchObject({ status: 'ignored', reason: 'unmapped_event_type' });
    let incidents = await incidentsOf(t.tenantId);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({
      condition_key: `booking_unmapped:calendly:${UNMAPPED}`,
      severity: 'critical',
      occurrences: 1,
      resolved_at: null,
      detail: { provider: 'calendly', eventType: UNMAPPED, webhookEventId: event!.id },
    });
    // No personal data of the invitee in the incident.
    expect(JSON.stringify(incidents[0])).not.toContain('Kenji');

    // A retry or replay of the same event counts nothing twice; the event stays ignored.
    await processWebhookEvent({ eventId: event!.id, attempt: 2, maxAttempts: 10 });
    await processWebhookEvent({ eventId: event!.id, attempt: 3, maxAttempts: 10 });
    incidents = await incidentsOf(t.tenantId);
    expect(incidents.map((i) => i.occurrences)).toEqual([1]);
    expect((await eventsOf(t.tenantId))[0]).toMatchObject({ status: 'ignored' });

    // Another dropped booking of the same type counts on the same incident; another type opens its own.
    const second = { ...body, payload: { ...body.payload, uri: 'https://api.calendly.com/invitees/UNMAPPED-2' } };
    await sendCalendly(t.tenantId, second);
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', {
        uri: 'https://api.calendly.com/invitees/UNMAPPED-3',
        start: 72,
        end: 80,
        createdAt: new Date().toISOString(),
        eventType: OTHER_UNMAPPED,
      }),
    );
    await sendCal(t.tenantId, calBooking('BOOKING_CREATED', 'cal-unmapped-1', { eventTypeId: 9999 }));
    await processAll(admin, t.tenantId);
    incidents = await incidentsOf(t.tenantId);
    expect(incidents.map((i) => [i.condition_key, i.occurrences])).toEqual(
      expect.arrayContaining([
        [`booking_unmapped:calendly:${UNMAPPED}`, 2],
        [`booking_unmapped:calendly:${OTHER_UNMAPPED}`, 1],
        ['booking_unmapped:cal:9999', 1],
      ]),
    );
    expect(incidents).toHaveLength(3);
    const { rows: reservations } = await admin.query('select 1 from reservations where tenant_id = $1', [t.tenantId]);
    expect(reservations).toHaveLength(0);

    // The incidents page names the event type and links the webhook event.
    const listed = await listIncidents({ tenantId: t.tenantId });
    const first = listed.open.find((i) => i.detail.eventType === UNMAPPED)!;
    expect(first.context.eventType).toBe(UNMAPPED);
    expect(first.context.webhookEvent).toMatchObject({ provider: 'calendly', type: 'invitee.created' });

    // Mapping the event type resolves its incident (and only its), whoever adds the mapping.
    await addBookingSource({ tenantId: t.tenantId, provider: 'calendly', eventType: UNMAPPED, roomId: t.roomIds[0]! });
    incidents = await incidentsOf(t.tenantId);
    const resolved = incidents.filter((i) => i.resolved_at !== null).map((i) => i.condition_key);
    expect(resolved).toEqual([`booking_unmapped:calendly:${UNMAPPED}`]);
    // The dropped events stay as they were: ignored, with their reason.
    expect((await eventsOf(t.tenantId)).filter((e) => e.status === 'ignored')).toHaveLength(4);
  });

  it("never resolves another tenant's incident when a mapping is added", async () => {
    const a = await tenantWithSources();
    const b = await createBookableTenant();
    await sendCalendly(
      a.tenantId,
      invitee('invitee.created', {
        uri: 'https://api.calendly.com/invitees/CROSS-1',
        start: 48,
        end: 60,
        createdAt: new Date().toISOString(),
        eventType: UNMAPPED,
      }),
    );
    await processAll(admin, a.tenantId);
    await addBookingSource({ tenantId: b.tenantId, provider: 'calendly', eventType: UNMAPPED, roomId: b.roomIds[0]! });
    expect((await incidentsOf(a.tenantId)).map((i) => i.resolved_at)).toEqual([null]);
  });
});

describe('a booking whose mapped room was archived', () => {
  it('is rejected as such, not as "already booked", with a critical incident and no reservation', async () => {
    const t = await tenantWithSources();
    await admin.query('update rooms set archived_at = now() where tenant_id = $1 and id = $2', [
      t.tenantId,
      t.roomIds[0],
    ]);
    const body = invitee('invitee.created', {
      uri: 'https://api.calendly.com/invitees/ARCHIVED-1',
      start: 48,
      end: 60,
      createdAt: new Date().toISOString(),
      name: 'Kenji Sato',
    });
    expect((await sendCalendly(t.tenantId, body)).status).toBe(200);
    await processAll(admin, t.tenantId);

    expect(await eventsOf(t.tenantId)).toMatchObject([{ status: 'rejected', reason: 'room_archived' }]);
    const { rows: incidents } = await admin.query(
      `select kind, severity, summary from incidents where tenant_id = $1 and resolved_at is null`,
      [t.tenantId],
    );
    expect(incidents).toEqual([
      expect.objectContaining({
        kind: 'room_archived',
        severity: 'critical',
        summary: expect.stringContaining('archived room'),
      }),
    ]);
    const { rows } = await admin.query('select count(*)::int as n from reservations where tenant_id = $1', [
      t.tenantId,
    ]);
    expect(rows[0].n).toBe(0);
  });
});
