import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { appPool } from '../../db/client';
import { createProviderBooking } from './provider-bookings';
import {
  EVENT_TYPE,
  calBooking,
  invitee,
  reservationsOf,
  sendCal,
  sendCalendly,
  tenantWithSources,
} from '../../../tooling/testing/booking-webhooks';
import { adminClient, loginClient } from '../../../tooling/testing/fixtures';
import { processWebhookEvent } from '../process-event';

// A provider booking's create and cancel are serialised per booking (tenant + external ref): a
// cancel landing between the create's checks and its write must not leave a live booking with a
// key, and a replay of an event still in flight must not record a false slot_unavailable.

let admin: pg.Client;
let n = 0;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

/** Holds the room's booking lock (the one reserve_booking_group takes) in another session: a create blocks at its write. */
async function holdRoom(roomId: string): Promise<pg.Client> {
  const client = await loginClient();
  await client.query('begin');
  await client.query(`select set_config('role', 'app_service', true)`);
  await client.query(`select pg_advisory_xact_lock(hashtextextended($1::text, 2))`, [roomId]);
  return client;
}

async function waiters(): Promise<number> {
  const { rows } = await admin.query(
    `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return rows[0].n;
}

async function untilWaiting(count: number): Promise<void> {
  for (let i = 0; i < 200 && (await waiters()) < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  if ((await waiters()) < count) throw new Error(`expected ${count} sessions waiting on a lock`);
}

const eventId = async (tenantId: string, dedupeKey: string) =>
  (await admin.query(`select id from webhook_events where tenant_id = $1 and dedupe_key = $2`, [tenantId, dedupeKey]))
    .rows[0].id as string;

const process1 = (id: string) => processWebhookEvent({ eventId: id, attempt: 1, maxAttempts: 10 });

describe('a provider booking’s create and cancel', () => {
  it('Calendly: a cancel that lands while the create is between its checks and its write still cancels the booking', async () => {
    const t = await tenantWithSources();
    const uri = `https://api.calendly.com/scheduled_events/R/invitees/RACE${++n}`;
    await sendCalendly(
      t.tenantId,
      invitee('invitee.created', { uri, start: 60, end: 62, createdAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    const createId = await eventId(t.tenantId, `${uri}:invitee.created`);

    const room = await holdRoom(t.roomIds[0]!);
    const creating = process1(createId);
    await untilWaiting(1); // the create has passed its checks (no cancellation known yet) and waits to write
    await sendCalendly(
      t.tenantId,
      invitee('invitee.canceled', { uri, start: 60, end: 62, createdAt: new Date().toISOString() }),
    );
    const cancelling = process1(await eventId(t.tenantId, `${uri}:invitee.canceled`));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the cancel runs now (before the fix, to completion)
    await room.query('commit');
    await room.end();
    await Promise.all([creating, cancelling]);

    expect(await reservationsOf(admin, t.tenantId)).toEqual([
      { external_ref: uri, status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
  });

  it('Cal.com: a replay of a create still in flight records no false slot_unavailable and opens no incident', async () => {
    const t = await tenantWithSources();
    const uid = `cal-inflight-${++n}`;
    await sendCal(t.tenantId, calBooking('BOOKING_CREATED', uid));
    const id = await eventId(t.tenantId, `${uid}:BOOKING_CREATED`);

    const room = await holdRoom(t.roomIds[1]!);
    const first = process1(id);
    await untilWaiting(1);
    const replay = process1(id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await room.query('commit');
    await room.end();
    await Promise.all([first, replay]);

    expect(await reservationsOf(admin, t.tenantId)).toEqual([
      { external_ref: uid, status: 'confirmed', keys: 'pre_issued:' },
    ]);
    const { rows } = await admin.query(`select status, reason from webhook_events where id = $1`, [id]);
    expect(rows[0]).toEqual({ status: 'processed', reason: null });
    const incidents = await admin.query(`select kind from incidents where tenant_id = $1`, [t.tenantId]);
    expect(incidents.rows).toEqual([]);
  });

  it('decides and writes a create in one round trip, and the same create again writes nothing', async () => {
    const t = await tenantWithSources();
    const externalRef = `https://api.calendly.com/scheduled_events/R/invitees/ONE${++n}`;
    const create = () =>
      createProviderBooking({
        tenantId: t.tenantId,
        provider: 'calendly',
        eventId: `one-${n}`,
        eventType: EVENT_TYPE,
        externalRef,
        cancelDedupeKey: `${externalRef}:invitee.canceled`,
        startsAt: new Date(Date.now() + 70 * 3_600_000),
        endsAt: new Date(Date.now() + 72 * 3_600_000),
        eventTime: new Date(),
        guest: { name: "Yui O'Kato \\ ');--", email: 'yui@example.com' },
      });
    const query = vi.spyOn(appPool(), 'query');
    try {
      expect(await create()).toEqual({ status: 'processed' });
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    expect(await create()).toEqual({ status: 'processed' });
    expect(await reservationsOf(admin, t.tenantId)).toEqual([
      { external_ref: externalRef, status: 'confirmed', keys: 'pre_issued:' },
    ]);
    const { rows } = await admin.query(
      `select g.name, r.source::text from reservations r join guests g on g.tenant_id = r.tenant_id and g.id = r.guest_id
        where r.tenant_id = $1`,
      [t.tenantId],
    );
    expect(rows).toEqual([{ name: "Yui O'Kato \\ ');--", source: 'calendly' }]);
  });
});
