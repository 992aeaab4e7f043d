import type pg from 'pg';
import { addBookingSource } from '../../lib/bookings/booking-sources';
import { setProviderSecret } from '../../lib/secrets/provider-secrets';
import { signAcuity } from '../../lib/webhooks/acuity/verify';
import { signCal } from '../../lib/webhooks/cal/verify';
import { signCalendly } from '../../lib/webhooks/calendly/verify';
import { processWebhookEvent } from '../../lib/webhooks/process-event';
import { replayWebhookEvents } from '../../lib/webhooks/replay';
import { createBookableTenant, TEST_ACTOR } from './fixtures';
import { routeHandler } from '../../lib/api/router';

const calRoute = routeHandler('POST', '/api/webhooks/cal/{tenantId}');
const calendlyRoute = routeHandler('POST', '/api/webhooks/calendly/{tenantId}');
const acuityRoute = routeHandler('POST', '/api/webhooks/acuity/{tenantId}');

// Booking-provider deliveries as Calendly and Cal.com send them, for the webhook tests.

export const CALENDLY_KEY = 'calendly-signing-key-test';
export const CAL_SECRET = 'cal-secret-test';
export const EVENT_TYPE = 'https://api.calendly.com/event_types/ROOM101';
export const CAL_EVENT_TYPE = '4242';

/** A bookable tenant with Calendly and Cal.com secrets (`calendly`/`cal`, default the shared test ones) and a booking source each. */
export async function tenantWithSources(secrets: { calendly?: string; cal?: string } = {}) {
  const t = await createBookableTenant({ rooms: 2 });
  await setProviderSecret({
    tenantId: t.tenantId,
    provider: 'calendly',
    value: secrets.calendly ?? CALENDLY_KEY,
    actor: TEST_ACTOR,
  });
  await setProviderSecret({
    tenantId: t.tenantId,
    provider: 'cal',
    value: secrets.cal ?? CAL_SECRET,
    actor: TEST_ACTOR,
  });
  await addBookingSource({ tenantId: t.tenantId, provider: 'calendly', eventType: EVENT_TYPE, roomId: t.roomIds[0]! });
  await addBookingSource({ tenantId: t.tenantId, provider: 'cal', eventType: CAL_EVENT_TYPE, roomId: t.roomIds[1]! });
  return t;
}

export const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** A Calendly invitee event body. */
export function invitee(
  event: 'invitee.created' | 'invitee.canceled',
  opts: {
    uri: string;
    start: number;
    end: number;
    createdAt: string;
    rescheduled?: boolean;
    oldInvitee?: string;
    eventType?: string;
    name?: string;
    email?: string;
  },
) {
  return {
    event,
    created_at: opts.createdAt,
    created_by: 'https://api.calendly.com/users/U',
    payload: {
      uri: opts.uri,
      name: opts.name ?? 'Yui Kato',
      email: opts.email ?? 'yui@example.com',
      status: event === 'invitee.created' ? 'active' : 'canceled',
      rescheduled: opts.rescheduled ?? false,
      old_invitee: opts.oldInvitee ?? null,
      scheduled_event: {
        uri: 'https://api.calendly.com/scheduled_events/E',
        start_time: hoursFromNow(opts.start),
        end_time: hoursFromNow(opts.end),
        event_type: opts.eventType ?? EVENT_TYPE,
      },
    },
  };
}

/** A Cal.com booking event body. */
export function calBooking(trigger: string, uid: string, extra: Record<string, unknown> = {}) {
  return {
    triggerEvent: trigger,
    createdAt: new Date().toISOString(),
    payload: {
      uid,
      startTime: hoursFromNow(90),
      endTime: hoursFromNow(92),
      eventTypeId: Number(CAL_EVENT_TYPE),
      attendees: [{ name: 'Leo', email: 'leo@example.com' }],
      ...extra,
    },
  };
}

/** Delivers a Calendly event (or these bytes) to a tenant's route, signed with `key` (or the header given; null for none). */
export function sendCalendly(tenantId: string, body: unknown, options: { key?: string; header?: string | null } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const signature = options.header === undefined ? signCalendly(raw, options.key ?? CALENDLY_KEY) : options.header;
  return calendlyRoute(
    new Request(`http://t/api/webhooks/calendly/${tenantId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(signature ? { 'calendly-webhook-signature': signature } : {}),
      },
      body: raw,
    }),
    { params: Promise.resolve({ tenantId }) },
  );
}

/** Delivers a Cal.com event (or these bytes) to a tenant's route, signed with `secret` (or the header given). */
export function sendCal(tenantId: string, body: unknown, options: { secret?: string; header?: string } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return calRoute(
    new Request(`http://t/api/webhooks/cal/${tenantId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-cal-signature-256': options.header ?? signCal(raw, options.secret ?? CAL_SECRET),
      },
      body: raw,
    }),
    { params: Promise.resolve({ tenantId }) },
  );
}

/** Processes every stored, unprocessed event of the tenant in arrival order, as the worker would. */
export async function processAll(admin: pg.Client, tenantId: string) {
  const { rows } = await admin.query(
    `select id from webhook_events where tenant_id = $1 and status in ('received', 'failed') order by received_at, id`,
    [tenantId],
  );
  for (const row of rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
}

/** A tenant's reservations by external ref, with their keys' states. */
export async function reservationsOf(admin: pg.Client, tenantId: string) {
  const { rows } = await admin.query(
    `select r.external_ref, r.status, (select string_agg(k.status || ':' || coalesce(k.revoked_reason, ''), ',' order by k.created_at) from access_keys k where k.reservation_id = r.id) as keys
     from reservations r where r.tenant_id = $1 order by r.created_at`,
    [tenantId],
  );
  return rows as { external_ref: string; status: string; keys: string | null }[];
}

/** Replays every event of a provider the tenant received in the last hour (as `cli webhooks-replay` would). */
export function replayLastHour(provider: 'calendly' | 'cal' | 'acuity', tenantId: string) {
  return replayWebhookEvents({
    provider,
    tenantId,
    from: new Date(Date.now() - 3_600_000),
    to: new Date(Date.now() + 60_000),
    actor: TEST_ACTOR,
  });
}

export const ACUITY_TYPE = '5151';
let acuityAccounts = 0;

/**
 * A bookable tenant whose Acuity account (a fresh user id, `apiKey` or a fresh key) is known to the
 * stand-in, with its `acuity` credentials set and appointment type ACUITY_TYPE mapped to its first room.
 */
export async function tenantWithAcuity(
  standin: { addAccount: (userId: string, apiKey: string) => void },
  apiKey?: string,
) {
  const t = await createBookableTenant({ rooms: 2 });
  const userId = String(1_000_000 + process.pid * 100 + ++acuityAccounts);
  const key = apiKey ?? `acuitykey${userId}abcdef0123456789`;
  standin.addAccount(userId, key);
  await setProviderSecret({ tenantId: t.tenantId, provider: 'acuity', value: `${userId}:${key}`, actor: TEST_ACTOR });
  await addBookingSource({ tenantId: t.tenantId, provider: 'acuity', eventType: ACUITY_TYPE, roomId: t.roomIds[0]! });
  return { ...t, acuityUserId: userId, acuityKey: key };
}

/** An Acuity notification's form body (`action=appointment.scheduled&id=…&calendarID=…&appointmentTypeID=…`). */
export function acuityForm(action: string, id: number, appointmentTypeId = ACUITY_TYPE): string {
  return new URLSearchParams({
    action,
    id: String(id),
    calendarID: '1',
    appointmentTypeID: appointmentTypeId,
  }).toString();
}

/** Delivers an Acuity notification (these form bytes) to a tenant's route, signed with `apiKey` (or the header given; null for none). */
export function sendAcuity(tenantId: string, body: string, options: { apiKey: string; header?: string | null }) {
  const signature = options.header === undefined ? signAcuity(body, options.apiKey) : options.header;
  return acuityRoute(
    new Request(`http://t/api/webhooks/acuity/${tenantId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(signature ? { 'x-acuity-signature': signature } : {}),
      },
      body,
    }),
    { params: Promise.resolve({ tenantId }) },
  );
}
