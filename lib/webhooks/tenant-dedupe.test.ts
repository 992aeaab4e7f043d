import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACUITY_TYPE,
  acuityForm,
  calBooking,
  invitee,
  processAll,
  reservationsOf,
  sendCal,
  sendAcuity,
  sendCalendly,
  tenantWithAcuity,
  tenantWithSources,
} from '../../tooling/testing/booking-webhooks';
import { adminClient } from '../../tooling/testing/fixtures';
import { acuityDatetime, startAcuityStandin } from '../../tooling/testing/acuity-standin';

// The attack: a manager of tenant A signs, with A's own Calendly or Cal.com secret, an event that
// carries tenant B's booking id and posts it to A's own webhook URL. Deduplicated across tenants,
// that stored event made B's genuine delivery a "duplicate": B's booking stayed confirmed and its
// key live. Duplicates are judged within the tenant.

let admin: pg.Client;
let n = 0;
beforeAll(async () => {
  admin = await adminClient();
});
afterAll(async () => {
  await admin.end();
});

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('a booking provider event signed by another tenant', () => {
  it('Calendly: cannot make the victim’s cancellation a duplicate — the victim’s booking is cancelled and its key revoked', async () => {
    const attacker = await tenantWithSources({ calendly: 'attacker-calendly-key' });
    const victim = await tenantWithSources({ calendly: 'victim-calendly-key' });
    const uri = `https://api.calendly.com/scheduled_events/V/invitees/VICTIM${++n}`;
    await sendCalendly(
      victim.tenantId,
      invitee('invitee.created', { uri, start: 40, end: 42, createdAt: ago(120_000) }),
      { key: 'victim-calendly-key' },
    );
    await processAll(admin, victim.tenantId);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: uri, status: 'confirmed', keys: 'pre_issued:' },
    ]);

    const forged = await sendCalendly(
      attacker.tenantId,
      invitee('invitee.canceled', { uri, start: 40, end: 42, createdAt: ago(60_000) }),
      { key: 'attacker-calendly-key' },
    );
    expect(await forged.json()).toEqual({ received: true, duplicate: false });
    await processAll(admin, attacker.tenantId);

    const genuine = await sendCalendly(
      victim.tenantId,
      invitee('invitee.canceled', { uri, start: 40, end: 42, createdAt: ago(30_000) }),
      { key: 'victim-calendly-key' },
    );
    expect(await genuine.json()).toEqual({ received: true, duplicate: false });
    await processAll(admin, victim.tenantId);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: uri, status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
    // And the attacker's event touched nothing of the victim's.
    expect(await reservationsOf(admin, attacker.tenantId)).toEqual([]);
  });

  it('Calendly: cannot pre-empt the victim’s booking — the genuine create is stored and makes the reservation', async () => {
    const attacker = await tenantWithSources({ calendly: 'attacker-calendly-key' });
    const victim = await tenantWithSources({ calendly: 'victim-calendly-key' });
    const uri = `https://api.calendly.com/scheduled_events/V/invitees/NEXT${++n}`;
    await sendCalendly(
      attacker.tenantId,
      invitee('invitee.created', {
        uri,
        start: 50,
        end: 51,
        createdAt: ago(60_000),
        eventType: 'https://api.calendly.com/event_types/NOPE',
      }),
      { key: 'attacker-calendly-key' },
    );
    const genuine = await sendCalendly(
      victim.tenantId,
      invitee('invitee.created', { uri, start: 50, end: 51, createdAt: ago(30_000) }),
      { key: 'victim-calendly-key' },
    );
    expect(await genuine.json()).toEqual({ received: true, duplicate: false });
    await processAll(admin, victim.tenantId);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: uri, status: 'confirmed', keys: 'pre_issued:' },
    ]);
  });

  it('Cal.com: cannot make the victim’s cancellation a duplicate — the victim’s booking is cancelled and its key revoked', async () => {
    const attacker = await tenantWithSources({ cal: 'attacker-cal-secret' });
    const victim = await tenantWithSources({ cal: 'victim-cal-secret' });
    const uid = `victim-cal-${++n}`;
    await sendCal(victim.tenantId, calBooking('BOOKING_CREATED', uid), { secret: 'victim-cal-secret' });
    await processAll(admin, victim.tenantId);
    const forged = await sendCal(attacker.tenantId, calBooking('BOOKING_CANCELLED', uid), {
      secret: 'attacker-cal-secret',
    });
    expect(await forged.json()).toEqual({ received: true, duplicate: false });
    await processAll(admin, attacker.tenantId);
    const genuine = await sendCal(victim.tenantId, calBooking('BOOKING_CANCELLED', uid), {
      secret: 'victim-cal-secret',
    });
    expect(await genuine.json()).toEqual({ received: true, duplicate: false });
    await processAll(admin, victim.tenantId);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: uid, status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
  });

  it('Cal.com: a duplicate within the tenant is still a duplicate', async () => {
    const t = await tenantWithSources();
    const body = calBooking('BOOKING_CREATED', `dup-${++n}`);
    expect(await (await sendCal(t.tenantId, body)).json()).toEqual({ received: true, duplicate: false });
    expect(await (await sendCal(t.tenantId, body)).json()).toEqual({ received: true, duplicate: true });
  });
});

describe('an Acuity notification signed by another tenant', () => {
  let standin: Awaited<ReturnType<typeof startAcuityStandin>>;
  beforeAll(async () => {
    standin = await startAcuityStandin();
    process.env.ACUITY_API_URL = standin.url;
  });
  afterAll(async () => {
    delete process.env.ACUITY_API_URL;
    await standin.close();
  });

  it('is refused at the victim’s address, and at its own cannot make the victim’s cancellation a duplicate', async () => {
    const attacker = await tenantWithAcuity(standin);
    const victim = await tenantWithAcuity(standin);
    const id = 70_000 + ++n;
    standin.put(victim.acuityUserId, {
      id,
      datetime: acuityDatetime(new Date(Date.now() + 40 * 3_600_000)),
      duration: 120,
      appointmentTypeID: Number(ACUITY_TYPE),
    });
    await sendAcuity(victim.tenantId, acuityForm('appointment.scheduled', id), { apiKey: victim.acuityKey });
    await processAll(admin, victim.tenantId);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: String(id), status: 'confirmed', keys: 'pre_issued:' },
    ]);

    const cancel = acuityForm('appointment.canceled', id);
    const atVictim = await sendAcuity(victim.tenantId, cancel, { apiKey: attacker.acuityKey });
    expect(atVictim.status).toBe(400);
    const forged = await sendAcuity(attacker.tenantId, cancel, { apiKey: attacker.acuityKey });
    expect(await forged.json()).toEqual({ received: true, duplicate: false });
    // The attacker's worker reads the attacker's own account, which has no such appointment.
    await processAll(admin, attacker.tenantId);
    expect(await reservationsOf(admin, attacker.tenantId)).toEqual([]);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: String(id), status: 'confirmed', keys: 'pre_issued:' },
    ]);

    standin.put(victim.acuityUserId, { ...standin.get(victim.acuityUserId, id)!, canceled: true });
    const genuine = await sendAcuity(victim.tenantId, cancel, { apiKey: victim.acuityKey });
    expect(await genuine.json()).toEqual({ received: true, duplicate: false });
    await processAll(admin, victim.tenantId);
    expect(await reservationsOf(admin, victim.tenantId)).toEqual([
      { external_ref: String(id), status: 'cancelled', keys: 'revoked:booking_canceled' },
    ]);
  });
});
