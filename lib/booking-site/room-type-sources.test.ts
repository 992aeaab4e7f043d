import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setProviderSecret } from '../secrets/provider-secrets';
import { adminClient, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { createBookingSite } from '../../tooling/testing/booking-site';
import { CALENDLY_KEY, invitee, processAll, sendCalendly } from '../../tooling/testing/booking-webhooks';
import { sweepBookingRequests } from './booking-requests';

// A Calendly event type mapped to a room type (not one room): every booking of a "Standard Double" gets a free
// room of the type, so the second booking of the same slot no longer fails; a third, with none left, is refused.

let admin: pg.Client;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

describe('booking sources mapped to a room type', () => {
  it('gives each booking of the event type a free room of the type until none is left', async () => {
    const site = await createBookingSite(admin, { rooms: 2 });
    await setProviderSecret({ tenantId: site.tenantId, provider: 'calendly', value: CALENDLY_KEY, actor: TEST_ACTOR });
    const eventType = `https://api.calendly.com/event_types/DOUBLE-${Date.now()}`;
    await admin.query(
      `insert into booking_sources (tenant_id, provider, event_type, room_type_id) values ($1, 'calendly', $2, $3)`,
      [site.tenantId, eventType, site.roomTypeId],
    );
    for (const n of [1, 2, 3]) {
      const response = await sendCalendly(
        site.tenantId,
        invitee('invitee.created', {
          uri: `https://api.calendly.com/scheduled_events/E/invitees/I${n}-${Date.now()}`,
          start: 48,
          end: 50,
          createdAt: new Date().toISOString(),
          eventType,
        }),
      );
      expect(response.status).toBe(200);
      await processAll(admin, site.tenantId);
    }
    const { rows } = await admin.query(
      `select room_id from reservations where tenant_id = $1 and status <> 'cancelled' order by room_id`,
      [site.tenantId],
    );
    expect(rows.map((r) => r.room_id).sort()).toEqual([...site.roomIds].sort());
    const { rows: events } = await admin.query(
      `select status from webhook_events where tenant_id = $1 and provider = 'calendly' order by received_at`,
      [site.tenantId],
    );
    expect(events.map((e) => e.status).slice(0, 2)).toEqual(['processed', 'processed']);
    expect(events[2].status).not.toBe('processed');
  });

  it('refuses a source naming both a room and a room type, or neither (check constraint)', async () => {
    const site = await createBookingSite(admin, { rooms: 1 });
    for (const [room, type] of [
      [site.roomIds[0], site.roomTypeId],
      [null, null],
    ]) {
      const error = await admin
        .query(
          `insert into booking_sources (tenant_id, provider, event_type, room_id, room_type_id) values ($1, 'cal', $2, $3, $4)`,
          [site.tenantId, `et-${Math.random()}`, room, type],
        )
        .catch((e: { code: string }) => e);
      expect((error as { code?: string }).code).toBe('23514');
    }
  });

  it('deletes booking requests that never became a booking a day after their code expired, their mail with them', async () => {
    const site = await createBookingSite(admin, { rooms: 1 });
    const { rows } = await admin.query(
      `select r.id from app_create_booking_request($1, gen_random_uuid(), $2, $3, now() + interval '9 days',
              now() + interval '10 days', 'Old', 'old@example.com', null, 'en', '\\x00', 15, 100, 'jpy', 'none', null) r`,
      [site.tenantId, site.facilityId, site.roomTypeId],
    );
    const id = rows[0].id as string;
    await admin.query(`update booking_requests set code_expires_at = now() - interval '2 days' where id = $1`, [id]);
    expect(await sweepBookingRequests()).toBeGreaterThanOrEqual(1);
    const { rows: left } = await admin.query(
      `select (select count(*)::int from booking_requests where id = $1) as requests,
              (select count(*)::int from messages where booking_request_id = $1) as mails`,
      [id],
    );
    expect(left).toEqual([{ requests: 0, mails: 0 }]);
  });
});
