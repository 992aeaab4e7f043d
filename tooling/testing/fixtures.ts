import { randomUUID, randomBytes } from 'node:crypto';
import pg from 'pg';

/** A connection as the database owner (bypasses RLS): for arranging fixtures and reading state. */
export async function adminClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.TEST_ADMIN_URL });
  await client.connect();
  return client;
}

/** A connection as the login role, to drive SQL-level tests (`set role`, settings) by hand. */
export async function loginClient(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.APP_DATABASE_URL });
  await client.connect();
  return client;
}

/**
 * Runs one statement as an application role in a transaction scoped to a tenant, on the login
 * role's connection as the application would, and rolls it back: `{ rows }`, or the SQLSTATE it
 * failed with (`{ code: '42501' }`).
 */
export async function asRole(
  role: 'app_anon' | 'app_authenticated' | 'app_service',
  tenantId: string | null,
  sql: string,
  params: unknown[] = [],
): Promise<{ rows: Record<string, unknown>[] } | { code: string }> {
  const login = await loginClient();
  try {
    await login.query('begin');
    await login.query(`select set_config('role', $1, true), set_config('app.tenant_id', $2, true)`, [
      role,
      tenantId ?? '',
    ]);
    return { rows: (await login.query(sql, params)).rows };
  } catch (error) {
    return { code: (error as { code?: string }).code ?? 'unknown' };
  } finally {
    await login.query('rollback').catch(() => {});
    await login.end();
  }
}

export type TenantGraph = {
  tenantId: string;
  facilityId: string;
  roomId: string;
  userId: string;
  guestId: string;
  reservationId: string;
  checkInId: string;
  keyId: string;
};

/**
 * A tenant with one row in every tenant-owned table, written as the owner. The cross-tenant test
 * requires a row per table, so a new tenant table must be added here to pass.
 */
export async function createTenantGraph(admin: pg.Client, label = 'Fixture'): Promise<TenantGraph> {
  const tag = randomBytes(4).toString('hex');
  const ids = {
    tenantId: randomUUID(),
    facilityId: randomUUID(),
    roomId: randomUUID(),
    userId: randomUUID(),
    guestId: randomUUID(),
    reservationId: randomUUID(),
    checkInId: randomUUID(),
    keyId: randomUUID(),
  };
  const q = (sql: string, params: unknown[]) => admin.query(sql, params);
  await q('insert into tenants (id, name) values ($1, $2)', [ids.tenantId, `${label} ${tag}`]);
  await q('insert into facilities (tenant_id, id, name, time_zone) values ($1, $2, $3, $4)', [
    ids.tenantId,
    ids.facilityId,
    'Main',
    'Asia/Tokyo',
  ]);
  await q('insert into rooms (tenant_id, id, facility_id, label) values ($1, $2, $3, $4)', [
    ids.tenantId,
    ids.roomId,
    ids.facilityId,
    '101',
  ]);
  // The room's door: a lock, so the key below gets a door row (key_lock_codes) of its own.
  await q(
    `with l as (insert into locks (tenant_id, provider, device_id, name) values ($1, 'simulator', $3, $3) returning id)
     insert into room_locks (tenant_id, room_id, lock_id) select $1, $2, id from l`,
    [ids.tenantId, ids.roomId, `lock-graph-${tag}`],
  );
  await q('insert into users (id, email, password_hash) values ($1, $2, $3)', [
    ids.userId,
    `staff-${tag}@example.com`,
    'scrypt$x',
  ]);
  await q(`insert into memberships (tenant_id, user_id, role) values ($1, $2, 'manager')`, [ids.tenantId, ids.userId]);
  // An invitation of the tenant to another account, still open.
  const invitedId = randomUUID();
  await q('insert into users (id, email) values ($1, $2)', [invitedId, `invited-${tag}@example.com`]);
  await q(
    `insert into staff_invitations (id, tenant_id, user_id, email, role, token_hash, invited_by_type, invited_by_label, expires_at)
     values ($1, $2, $3, $4, 'front_desk', sha256(convert_to($4, 'utf8')), 'system', 'fixture', now() + interval '1 hour')`,
    [randomUUID(), ids.tenantId, invitedId, `invited-${tag}@example.com`],
  );
  await q('insert into guests (tenant_id, id, name) values ($1, $2, $3)', [ids.tenantId, ids.guestId, 'Guest']);
  const groupId = randomUUID();
  await q(
    'insert into booking_groups (tenant_id, id, payment_intent_id, checkout_session_id) values ($1, $2, $3, $4)',
    [ids.tenantId, groupId, `pi_${tag}`, `cs_${tag}`],
  );
  await q(
    `insert into reservations (tenant_id, id, booking_group_id, room_id, guest_id, starts_at, ends_at, source, room_label_snapshot, guest_ref_snapshot)
     values ($1, $2, $3, $4, $5, now(), now() + interval '1 day', 'api', '101', 'guest_ref')`,
    [ids.tenantId, ids.reservationId, groupId, ids.roomId, ids.guestId],
  );
  await q('insert into check_ins (tenant_id, id, reservation_id) values ($1, $2, $3)', [
    ids.tenantId,
    ids.checkInId,
    ids.reservationId,
  ]);
  await q(
    `insert into guest_links (tenant_id, reservation_id, token_hash, expires_at) values ($1, $2, $3, now() + interval '2 days')`,
    [ids.tenantId, ids.reservationId, randomBytes(32)],
  );
  await q(
    `insert into access_keys (tenant_id, id, reservation_id, check_in_id, room_id, status, pin, valid_from, expires_at)
     values ($1, $2, $3, $4, $5, 'active', '123456', now(), now() + interval '1 day')`,
    [ids.tenantId, ids.keyId, ids.reservationId, ids.checkInId, ids.roomId],
  );
  await q(
    `insert into audit_events (tenant_id, actor_type, actor_label, action, subject_type, subject_id) values ($1, 'system', 'fixture', 'key.issued', 'access_key', $2)`,
    [ids.tenantId, ids.keyId],
  );
  await q('insert into api_keys (tenant_id, name, prefix, secret_hash) values ($1, $2, $3, $4)', [
    ids.tenantId,
    'fixture',
    'uok_fixture',
    randomBytes(32),
  ]);
  // Version 1000: random bytes on a key no rotation test will ever try to read.
  await q(
    `insert into provider_secrets (tenant_id, provider, ciphertext, key_version) values ($1, 'calendly', $2, 1000)`,
    [ids.tenantId, randomBytes(16)],
  );
  await q(`insert into subscriptions (tenant_id, stripe_subscription_id, status) values ($1, $2, 'active')`, [
    ids.tenantId,
    `sub_${tag}`,
  ]);
  await q(`insert into billing_failures (tenant_id, kind, day) values ($1, 'invoice.payment_failed', current_date)`, [
    ids.tenantId,
  ]);
  await q(
    `insert into incidents (tenant_id, condition_key, kind, summary) values ($1, 'fixture', 'fixture', 'fixture')`,
    [ids.tenantId],
  );
  // A sent guest message and what the local mail catcher kept of it.
  await q(
    `with m as (insert into messages (tenant_id, reservation_id, kind, occasion, to_address, status)
                values ($1, $2, 'key_link', 'booking', 'guest@example.com', 'sent') returning tenant_id, id)
     insert into caught_mail (tenant_id, message_id, subject) select tenant_id, id, 'fixture' from m`,
    [ids.tenantId, ids.reservationId],
  );
  await q(`insert into booking_sources (tenant_id, provider, event_type, room_id) values ($1, 'calendly', $2, $3)`, [
    ids.tenantId,
    `et_${tag}`,
    ids.roomId,
  ]);
  await q(
    `insert into webhook_events (tenant_id, provider, dedupe_key, type, payload) values ($1, 'cal', $2, 'BOOKING_CREATED', '{}')`,
    [ids.tenantId, `uid_${tag}:BOOKING_CREATED`],
  );
  // A booking site's slug (its install-wide lookup).
  await q(`update facilities set slug = $3 where tenant_id = $1 and id = $2`, [
    ids.tenantId,
    ids.facilityId,
    `site-${ids.facilityId}`,
  ]);
  // An iCal import feed on the room with the event it booked, and the room's export token.
  await q(
    `with f as (insert into ical_feeds (tenant_id, room_id, url) values ($1, $2, 'https://example.com/' || $3 || '.ics')
                returning tenant_id, id)
     insert into ical_feed_events (tenant_id, feed_id, uid, status, reservation_id, starts_at, ends_at)
     select tenant_id, id, 'uid-' || $3, 'booked', $4, now() + interval '1 day', now() + interval '2 days' from f`,
    [ids.tenantId, ids.roomId, tag, ids.reservationId],
  );
  await q(`insert into room_ical_exports (tenant_id, room_id, token) values ($1, $2, $3)`, [
    ids.tenantId,
    ids.roomId,
    `graph-export-token-${tag}-${randomUUID()}`,
  ]);
  // A door opening by the key's code, as a lock provider reported it.
  await q(
    `insert into door_entries (tenant_id, provider, provider_event_id, lock_id, kind, method, occurred_at, key_id)
     select $1, 'simulator', 'event-' || $3, l.id, 'unlocked', 'code', now(), $2
       from locks l where l.tenant_id = $1`,
    [ids.tenantId, ids.keyId, tag],
  );
  await q(
    `insert into remote_unlocks (tenant_id, lock_id, user_id, actor_type, actor_id, actor_label, reason, status, action_id)
     select $1, l.id, $2::uuid, 'user', $2::text, 'Fixture', 'Guest locked out', 'done', 'action-' || $3
       from locks l where l.tenant_id = $1`,
    [ids.tenantId, ids.userId, tag],
  );
  // Where the reading of the lock's records stands.
  await q(
    `insert into lock_record_cursors (tenant_id, lock_id, read_until, polled_at)
     select $1, l.id, now(), now() from locks l where l.tenant_id = $1`,
    [ids.tenantId],
  );
  // A room type with the room in it, a payment taken at the desk, and a guest's unconfirmed request.
  await q(
    `with t as (insert into room_types (tenant_id, facility_id, name, weekday_cents) values ($1, $2, 'Fixture type', 10000)
                returning tenant_id, facility_id, id),
          r as (update rooms set room_type_id = (select id from t) where tenant_id = $1 and id = $3)
     insert into booking_requests (tenant_id, facility_id, room_type_id, starts_at, ends_at, guest_name, guest_email,
                                   code_hash, code_expires_at, amount_cents, currency, payment_mode)
     select tenant_id, facility_id, id, now() + interval '10 days', now() + interval '11 days', 'Guest', 'guest@example.com',
            '\\x00', now() + interval '15 minutes', 10000, 'jpy', 'none' from t`,
    [ids.tenantId, ids.facilityId, ids.roomId],
  );
  await q(
    `insert into room_type_photos (tenant_id, room_type_id, position, content_type, bytes)
     select tenant_id, id, 0, 'image/png', '\\x89504e47'::bytea from room_types where tenant_id = $1 and facility_id = $2`,
    [ids.tenantId, ids.facilityId],
  );
  await q(
    `insert into payments (tenant_id, reservation_id, amount_cents, currency, method) values ($1, $2, 10000, 'jpy', 'cash')`,
    [ids.tenantId, ids.reservationId],
  );
  // An extension the guest asked for, applied (owed at the property).
  await q(
    `insert into stay_extensions (tenant_id, reservation_id, room_id, from_ends_at, ends_at, amount_cents, currency, payment_mode, status)
     values ($1, $2, $3, now() + interval '1 day', now() + interval '2 days', 10000, 'jpy', 'at_property', 'applied')`,
    [ids.tenantId, ids.reservationId, ids.roomId],
  );
  // One guest of the stay's register (Japan's lodging law), as its definer function would write it.
  await q(
    `insert into guest_registrations (tenant_id, reservation_id, position, name, address, address_in_japan, nationality, retain_until)
     values ($1, $2, 1, 'Guest', 'Tokyo', true, 'JP', now())`,
    [ids.tenantId, ids.reservationId],
  );
  // A guest's message to the desk from their link.
  await q(
    `insert into guest_messages (tenant_id, reservation_id, guest_id, kind, body, priority)
     values ($1, $2, $3, 'message', 'Fixture message', 'normal')`,
    [ids.tenantId, ids.reservationId, ids.guestId],
  );
  return ids;
}

/**
 * A tenant built through the domain functions: a facility in Tokyo (check-in opens two hours before
 * a stay, so a stay booked an hour ahead can be checked in) and `rooms` rooms with lock devices.
 */
export async function createBookableTenant(
  options: { rooms?: number; lockDevices?: boolean; name?: string; earlyCheckInMinutes?: number } = {},
) {
  const { createFacility } = await import('../../lib/facilities/create-facility');
  const { createTenant } = await import('../../lib/staff/create-tenant');
  const tag = randomBytes(3).toString('hex');
  const tenant = await createTenant({ name: `${options.name ?? 'Bookable'} ${tag}` });
  const facility = await createFacility({
    tenantId: tenant.id,
    name: 'Main',
    timeZone: 'Asia/Tokyo',
    earlyCheckInMinutes: options.earlyCheckInMinutes ?? 120,
  });
  const roomIds: string[] = [];
  for (let i = 0; i < (options.rooms ?? 2); i++) {
    const room = await createRoomWithDevice({
      tenantId: tenant.id,
      facilityId: facility.id,
      label: `${101 + i}`,
      lockDevices: options.lockDevices !== false,
    });
    roomIds.push(room.id);
  }
  return { tenantId: tenant.id, facilityId: facility.id, roomIds };
}

export const TEST_ACTOR = { type: 'system' as const, id: null, label: 'test' };

/**
 * A room whose own door is a device of the install's simulator, assigned to the tenant the way the
 * operator's `room-create --lock-device` does. Device ids are TTLock lock ids (Ints), drawn at
 * random; one another tenant holds already (a device belongs to one tenant) is drawn again.
 */
export async function createRoomWithDevice(input: {
  tenantId: string;
  facilityId: string;
  label: string;
  lockDevices?: boolean;
}): Promise<{ id: string; lockDevice: string | null }> {
  const { createRoom } = await import('../../lib/rooms/create-room');
  const { tenantId, facilityId, label } = input;
  if (input.lockDevices === false) return { ...(await createRoom({ tenantId, facilityId, label })), lockDevice: null };
  for (let attempt = 1; ; attempt++) {
    // Ends in the room's label where it is a number (room 101's lock is …101): easier to read in a failure.
    const suffix = /^\d{1,3}$/.test(label) ? Number(label) : Math.floor(Math.random() * 1000);
    const lockDevice = String((100 + Math.floor(Math.random() * 2_140_000)) * 1000 + suffix);
    try {
      return { ...(await createRoom({ tenantId, facilityId, label, lockDeviceRef: lockDevice })), lockDevice };
    } catch (error) {
      if (attempt >= 5 || (error as { code?: string }).code !== 'conflict') throw error;
    }
  }
}

/** A confirmed reservation (with guest link and pre-issued key) in `roomId`, from `startsInHours` for `hours`. */
export async function bookRoom(input: {
  tenantId: string;
  roomId: string;
  startsInHours?: number;
  hours?: number;
  guestName?: string;
}) {
  const { createBookingGroup } = await import('../../lib/bookings/create-booking-group');
  const startsAt = new Date(Date.now() + (input.startsInHours ?? 1) * 3_600_000);
  const endsAt = new Date(startsAt.getTime() + (input.hours ?? 24) * 3_600_000);
  const group = await createBookingGroup({
    tenantId: input.tenantId,
    actor: TEST_ACTOR,
    guest: { name: input.guestName ?? 'Guest' },
    source: 'api',
    reservations: [{ roomId: input.roomId, startsAt, endsAt }],
  });
  return {
    bookingGroupId: group.id,
    guestId: group.guestId,
    reservationId: group.reservations[0]!.id,
    token: group.reservations[0]!.guestLinkToken,
  };
}

/** A confirmed reservation (with guest link and pre-issued key) in `roomId` for exactly [startsAt, endsAt); its id. */
export async function bookWindow(tenantId: string, roomId: string, startsAt: Date, endsAt: Date): Promise<string> {
  const { createBookingGroup } = await import('../../lib/bookings/create-booking-group');
  const group = await createBookingGroup({
    tenantId,
    actor: TEST_ACTOR,
    guest: { name: 'Guest' },
    source: 'api',
    reservations: [{ roomId, startsAt, endsAt }],
  });
  return group.reservations[0]!.id;
}
