import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setProviderSecret } from '../secrets/provider-secrets';
import { adminClient, createBookableTenant, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { seamEvent, sendSeam } from '../../tooling/testing/seam-webhooks';
import { newSvixSecret } from '../../tooling/testing/svix';
import { processWebhookEvent } from './process-event';
import { seamLockEvent } from './seam/handlers';

// Seam's webhooks (API.md, "Webhooks"): Svix-signed with the tenant's `seam_webhook` secret, stored
// once per tenant and Svix message id, then processed into LockEvents. Seam's fake sends no
// webhooks, so the deliveries here are signed by hand (tooling/testing/svix.ts).

// What the handler hands on is checked here; applying it to keys and locks is lib/locks/lock-events.ts's.
const { applyLockEvent } = vi.hoisted(() => ({ applyLockEvent: vi.fn() }));
vi.mock('../locks/lock-events', () => ({ applyLockEvent }));

let admin: pg.Client;

beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

async function seamTenant() {
  const secret = newSvixSecret();
  const { tenantId } = await createBookableTenant({ rooms: 1 });
  await setProviderSecret({ tenantId, provider: 'seam_webhook', value: secret, actor: TEST_ACTOR });
  return { tenantId, secret };
}

async function rowsOf(tenantId: string) {
  const { rows } = await admin.query(
    `select provider, dedupe_key, type, status, reason from webhook_events where tenant_id = $1 order by received_at, id`,
    [tenantId],
  );
  return rows as { provider: string; dedupe_key: string; type: string; status: string; reason: string | null }[];
}

async function rowsWithKey(dedupeKey: string) {
  const { rows } = await admin.query(`select tenant_id from webhook_events where dedupe_key = $1`, [dedupeKey]);
  return rows as { tenant_id: string }[];
}

const msgId = () => `msg_${randomUUID().replaceAll('-', '')}`;
const deviceEvent = () =>
  seamEvent('device.disconnected', { device_id: randomUUID(), error_code: 'device_disconnected' });

describe('POST /api/webhooks/seam/{tenantId}', () => {
  it('stores a verified delivery once per Svix id and answers duplicates as such', async () => {
    const t = await seamTenant();
    const id = msgId();
    const body = deviceEvent();
    const first = await sendSeam(t.tenantId, body, { secret: t.secret, id });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    expect(await rowsOf(t.tenantId)).toEqual([
      { provider: 'seam', dedupe_key: id, type: 'device.disconnected', status: 'received', reason: null },
    ]);

    // Seam's retry of the same message (same svix-id, a new timestamp and signature).
    const again = await sendSeam(t.tenantId, body, {
      secret: t.secret,
      id,
      timestamp: Math.floor(Date.now() / 1000) - 5,
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(await rowsOf(t.tenantId)).toHaveLength(1);
  });

  it('judges duplicates within the tenant: another tenant’s delivery with the same Svix id is its own', async () => {
    const a = await seamTenant();
    const b = await seamTenant();
    const id = msgId();
    expect(await (await sendSeam(a.tenantId, deviceEvent(), { secret: a.secret, id })).json()).toEqual({
      received: true,
      duplicate: false,
    });
    // B's own delivery, signed with B's secret at B's URL, is never suppressed by A's.
    const atB = await sendSeam(b.tenantId, deviceEvent(), { secret: b.secret, id });
    expect(atB.status).toBe(200);
    expect(await atB.json()).toEqual({ received: true, duplicate: false });
    expect((await rowsWithKey(id)).map((r) => r.tenant_id).sort()).toEqual([a.tenantId, b.tenantId].sort());
    expect(await rowsOf(a.tenantId)).toHaveLength(1);
    expect(await rowsOf(b.tenantId)).toHaveLength(1);
    // A's secret does not open B's URL.
    const forged = await sendSeam(b.tenantId, deviceEvent(), { secret: a.secret, id: msgId() });
    expect(forged.status).toBe(400);
    expect(await rowsOf(b.tenantId)).toHaveLength(1);
  });

  it('refuses a wrong secret, a tampered body, a stale or future timestamp and missing headers: 400, nothing stored', async () => {
    const t = await seamTenant();
    const body = deviceEvent();
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, Parameters<typeof sendSeam>[2]][] = [
      ['wrong secret', { secret: newSvixSecret() }],
      ['tampered body', { secret: t.secret, rawOverride: JSON.stringify({ ...body, device_id: randomUUID() }) }],
      ['stale timestamp', { secret: t.secret, timestamp: now - 600 }],
      ['future timestamp', { secret: t.secret, timestamp: now + 600 }],
      ['no svix-id', { secret: t.secret, headers: { 'svix-id': null } }],
      ['no svix-timestamp', { secret: t.secret, headers: { 'svix-timestamp': null } }],
      ['no svix-signature', { secret: t.secret, headers: { 'svix-signature': null } }],
      ['malformed signature', { secret: t.secret, headers: { 'svix-signature': 'v1=abc' } }],
      ['signature for another id', { secret: t.secret, headers: { 'svix-id': msgId() } }],
    ];
    for (const [label, options] of cases) {
      const response = await sendSeam(t.tenantId, body, options);
      const answer = (await response.json()) as { error?: { code?: string } };
      expect({ label, status: response.status, code: answer.error?.code }).toEqual({
        label,
        status: 400,
        code: 'invalid_signature',
      });
    }
    expect(await rowsOf(t.tenantId)).toEqual([]);
  });

  it('refuses a tenant without a Seam webhook secret, and answers 404 for an unknown tenant: nothing stored', async () => {
    const { tenantId } = await createBookableTenant({ rooms: 1 });
    const secret = newSvixSecret();
    const unset = await sendSeam(tenantId, deviceEvent(), { secret });
    expect(unset.status).toBe(400);
    expect(await rowsOf(tenantId)).toEqual([]);

    for (const unknown of [randomUUID(), 'not-a-tenant']) {
      const id = msgId();
      const response = await sendSeam(unknown, deviceEvent(), { secret, id });
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe('not_found');
      expect(await rowsWithKey(id)).toEqual([]);
    }
  });

  it('refuses a signed body that is not JSON (400 invalid_request) and stores nothing', async () => {
    const t = await seamTenant();
    const response = await sendSeam(t.tenantId, 'not json at all', { secret: t.secret });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('invalid_request');
    expect(await rowsOf(t.tenantId)).toEqual([]);
  });

  it('hands a code event to applyLockEvent as a LockEvent of the tenant, and records what it says', async () => {
    const t = await seamTenant();
    const device = randomUUID();
    const code = randomUUID();
    const occurredAt = new Date(Date.now() - 1_000).toISOString();
    await sendSeam(
      t.tenantId,
      seamEvent('access_code.set_on_device', { device_id: device, access_code_id: code, occurred_at: occurredAt }),
      { secret: t.secret },
    );
    await sendSeam(t.tenantId, seamEvent('device.low_battery', { device_id: device, battery_level: 0.08 }), {
      secret: t.secret,
    });
    applyLockEvent.mockReset();
    applyLockEvent
      .mockResolvedValueOnce({ status: 'processed' })
      .mockResolvedValueOnce({ status: 'ignored', reason: 'unknown_device' });
    const { rows } = await admin.query(`select id from webhook_events where tenant_id = $1 order by received_at, id`, [
      t.tenantId,
    ]);
    for (const row of rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
    expect(applyLockEvent.mock.calls).toEqual([
      [
        {
          tenantId: t.tenantId,
          provider: 'seam',
          event: { kind: 'code_set', deviceId: device, codeId: code, error: null, occurredAt: new Date(occurredAt) },
        },
      ],
      [
        {
          tenantId: t.tenantId,
          provider: 'seam',
          event: { kind: 'low_battery', deviceId: device, batteryLevel: 8, occurredAt: expect.any(Date) },
        },
      ],
    ]);
    expect((await rowsOf(t.tenantId)).map(({ status, reason }) => ({ status, reason }))).toEqual([
      { status: 'processed', reason: null },
      { status: 'ignored', reason: 'unknown_device' },
    ]);
  });

  it('ignores, with a reason, an event it does not handle and one whose payload does not parse', async () => {
    const t = await seamTenant();
    await sendSeam(t.tenantId, seamEvent('lock.access_denied', { device_id: randomUUID() }), { secret: t.secret });
    // A code event without its code: not something to apply.
    await sendSeam(t.tenantId, seamEvent('access_code.set_on_device', { device_id: randomUUID() }), {
      secret: t.secret,
    });
    const { rows } = await admin.query(`select id from webhook_events where tenant_id = $1 order by received_at, id`, [
      t.tenantId,
    ]);
    applyLockEvent.mockReset();
    for (const row of rows) await processWebhookEvent({ eventId: row.id, attempt: 1, maxAttempts: 10 });
    expect(applyLockEvent).not.toHaveBeenCalled();
    expect((await rowsOf(t.tenantId)).map(({ type, status, reason }) => ({ type, status, reason }))).toEqual([
      { type: 'lock.access_denied', status: 'ignored', reason: 'unhandled_event_type' },
      { type: 'access_code.set_on_device', status: 'ignored', reason: 'unparseable_payload: access_code_id' },
    ]);
  });
});

describe('Seam event payloads as LockEvents', () => {
  const device = 'd3b1f9a0-2a52-4a8e-9b0a-0d6c2f8e4c11';
  const code = '5b0b8a2e-7c7e-4d8e-8a4b-3a1c2f6d9e10';
  const at = '2026-12-01T10:00:00.000Z';
  const base = { device_id: device, occurred_at: at };

  it('maps the code events, with the error a failure or delay stands for', () => {
    const cases = [
      ['access_code.set_on_device', 'code_set', null],
      ['access_code.removed_from_device', 'code_removed', null],
      ['access_code.failed_to_set_on_device', 'code_failed', 'failed_to_set_on_device'],
      ['access_code.delay_in_setting_on_device', 'code_delayed', 'delay_in_setting_on_device'],
    ] as const;
    for (const [type, kind, error] of cases) {
      expect(seamLockEvent(seamEvent(type, { ...base, access_code_id: code, code: '1234' }))).toEqual({
        ok: true,
        event: { kind, deviceId: device, codeId: code, error, occurredAt: new Date(at) },
      });
    }
  });

  it('maps the device events, battery as a percentage', () => {
    expect(seamLockEvent(seamEvent('device.low_battery', { ...base, battery_level: 0.15 }))).toEqual({
      ok: true,
      event: { kind: 'low_battery', deviceId: device, batteryLevel: 15, occurredAt: new Date(at) },
    });
    for (const [type, kind] of [
      ['device.connected', 'device_connected'],
      ['device.disconnected', 'device_disconnected'],
      ['device.tampered', 'tampered'],
    ] as const) {
      expect(seamLockEvent(seamEvent(type, base))).toEqual({
        ok: true,
        event: { kind, deviceId: device, batteryLevel: null, occurredAt: new Date(at) },
      });
    }
  });

  it('names what is wrong with a payload that does not parse, never its values', () => {
    expect(seamLockEvent(null)).toMatchObject({ ok: false, reason: expect.stringMatching(/^unparseable_payload/) });
    expect(seamLockEvent(seamEvent('device.low_battery', { ...base, battery_level: 7 }))).toEqual({
      ok: false,
      reason: 'unparseable_payload: battery_level',
    });
    expect(seamLockEvent(seamEvent('device.connected', { device_id: 42, occurred_at: at }))).toEqual({
      ok: false,
      reason: 'unparseable_payload: device_id',
    });
    expect(
      seamLockEvent({ event_type: 'device.connected', device_id: device, occurred_at: 'yesterday-ish' }),
    ).toMatchObject({ ok: false, reason: 'unparseable_payload: occurred_at' });
    expect(seamLockEvent({ event_type: 'device.connected', device_id: device })).toEqual({
      ok: false,
      reason: 'unparseable_payload: occurred_at',
    });
    expect(seamLockEvent(seamEvent('thermostat.climate_preset_activated', base))).toEqual({
      ok: false,
      reason: 'unhandled_event_type',
    });
  });
});
