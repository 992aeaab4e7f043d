import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { routeHandler, type RouterMethod } from '../../lib/api/router';
import { CLIENT_ADDRESS_HEADER } from '../../lib/http/client-address';
import { createBookableTenant } from './fixtures';

// A published booking site for the tests of the public booking API: a tenant's facility with one room type
// holding its rooms, its rates and its payment mode, written as the owner (as setup would write them).

export type TBookingSiteFixture = {
  tenantId: string;
  facilityId: string;
  roomTypeId: string;
  roomIds: string[];
  slug: string;
};

export async function createBookingSite(
  admin: pg.Client,
  options: {
    rooms?: number;
    payment?: 'none' | 'online' | 'at_property';
    unit?: 'night' | 'hour';
    stripeAccount?: string | null;
    rates?: { weekday: number; weekend?: number | null; holiday?: number | null };
  } = {},
): Promise<TBookingSiteFixture> {
  const t = await createBookableTenant({ rooms: options.rooms ?? 2, lockDevices: false, name: 'Site' });
  const slug = `site-${randomBytes(5).toString('hex')}`;
  const hourly = options.unit === 'hour';
  await admin.query(
    `update facilities set slug = $3, published_at = now(), payment_mode = $4::payment_mode, booking_unit = $5::booking_unit,
            opens_at = case when $5::text = 'hour' then '09:00'::time end,
            closes_at = case when $5::text = 'hour' then '21:00'::time end,
            terms_text = 'Be kind.', privacy_text = 'We keep your data safe.'
      where tenant_id = $1 and id = $2`,
    [t.tenantId, t.facilityId, slug, options.payment ?? 'none', hourly ? 'hour' : 'night'],
  );
  if (options.stripeAccount)
    await admin.query(`update tenants set stripe_account_id = $2 where id = $1`, [t.tenantId, options.stripeAccount]);
  const roomTypeId = randomUUID();
  const rates = options.rates ?? { weekday: 12000, weekend: 15000, holiday: 18000 };
  await admin.query(
    `insert into room_types (tenant_id, id, facility_id, name, description, capacity, weekday_cents, weekend_cents, holiday_cents)
     values ($1, $2, $3, 'Standard Double', 'A double bed by the window', 2, $4, $5, $6)`,
    [t.tenantId, roomTypeId, t.facilityId, rates.weekday, rates.weekend ?? null, rates.holiday ?? null],
  );
  await admin.query(`update rooms set room_type_id = $2 where tenant_id = $1 and id = any($3::uuid[])`, [
    t.tenantId,
    roomTypeId,
    t.roomIds,
  ]);
  return { ...t, roomTypeId, slug };
}

/** A client address of a documentation range (2001:db8::/32) no other call of the run uses. */
export function testClientAddress(): string {
  const hex = randomBytes(8).toString('hex').match(/.{4}/g)!;
  return `2001:db8:${hex.slice(0, 2).join(':')}::${hex.slice(2).join(':')}`;
}

/** Calls a public booking route the way a browser at `address` would (the client address as the preload sets it). */
export async function callPublic(
  method: RouterMethod,
  path: string,
  params: Record<string, string>,
  options: { body?: unknown; query?: string; address?: string } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read answers of many shapes
): Promise<{ status: number; body: any; headers: Headers }> {
  const url = `http://test${path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '')}${options.query ?? ''}`;
  const response = await routeHandler(method, path)(
    new Request(url, {
      method,
      headers: {
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        [CLIENT_ADDRESS_HEADER]: options.address ?? testClientAddress(),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    }),
    { params: Promise.resolve(params) },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Lets the client address of test requests count (the web server's preload does this in production). */
export function trustTestClientAddresses(): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for('unlockos.client-address-preload')] = true;
}
