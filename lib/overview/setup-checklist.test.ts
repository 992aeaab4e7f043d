import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addBookingSource } from '../bookings/booking-sources';
import { createFacility } from '../facilities/create-facility';
import { updateFacilityOptions } from '../facilities/update-facility-options';
import { createTenant } from '../staff/create-tenant';
import { inviteMember, revokeInvitation } from '../staff/invitations';
import { createRoomWithDevice, TEST_ACTOR } from '../../tooling/testing/fixtures';
import { setupChecklist, type TSetupStep } from './setup-checklist';

// Issue 32, item 7: the first-run checklist ticks each step from the tenant's rows, and only its own.

const tag = () => randomBytes(3).toString('hex');
const doneSteps = async (tenantId: string): Promise<TSetupStep[]> =>
  (await setupChecklist({ tenantId })).steps.filter((s) => s.done).map((s) => s.step);

describe('the first-run checklist', () => {
  it('ticks facility, rooms, doors, channels, payments and staff as the rows appear', async () => {
    const tenantId = (await createTenant({ name: `Checklist ${tag()}` })).id;
    expect(await setupChecklist({ tenantId })).toMatchObject({ allDone: false, facilityId: null });
    expect(await doneSteps(tenantId)).toEqual([]);

    const facility = await createFacility({ tenantId, name: 'Main', timeZone: 'Asia/Tokyo' });
    expect(await doneSteps(tenantId)).toEqual(['facility']);
    expect((await setupChecklist({ tenantId })).facilityId).toBe(facility.id);

    // A room without a lock is a room, not a door.
    const plain = await createRoomWithDevice({ tenantId, facilityId: facility.id, label: '101', lockDevices: false });
    expect(await doneSteps(tenantId)).toEqual(['facility', 'rooms']);
    await createRoomWithDevice({ tenantId, facilityId: facility.id, label: '102' });
    expect(await doneSteps(tenantId)).toEqual(['facility', 'rooms', 'doors']);

    await addBookingSource({
      tenantId,
      provider: 'calendly',
      eventType: `https://api.calendly.com/event_types/CHECK${tag()}`,
      roomId: plain.id,
    });
    expect(await doneSteps(tenantId)).toEqual(['facility', 'rooms', 'doors', 'channels']);

    // `none` is the default: only saving it as the facility's choice ticks payments.
    await updateFacilityOptions({
      tenantId,
      facilityId: facility.id,
      options: { paymentMode: 'none' },
      actor: TEST_ACTOR,
    });
    expect(await doneSteps(tenantId)).toEqual(['facility', 'rooms', 'doors', 'channels', 'payments']);

    // Staff: an open invitation counts; revoked, it no longer does.
    const { invitationId } = await inviteMember({
      tenantId,
      email: `clerk-${tag()}@example.com`,
      name: 'Clerk',
      role: 'front_desk',
      actor: TEST_ACTOR,
    });
    expect(await setupChecklist({ tenantId })).toMatchObject({ allDone: true });
    await revokeInvitation({ tenantId, invitationId, actor: TEST_ACTOR });
    expect(await doneSteps(tenantId)).not.toContain('staff');
  });

  it('counts payments for a connected Stripe account or a facility taking payment, and nothing of another tenant', async () => {
    const stripe = (await createTenant({ name: `Stripe ${tag()}`, stripeAccountId: `acct_${tag()}CHECK` })).id;
    expect(await doneSteps(stripe)).toEqual(['payments']);

    const atProperty = (await createTenant({ name: `At property ${tag()}` })).id;
    const { id: facilityId } = await createFacility({ tenantId: atProperty, name: 'Desk pays', timeZone: 'UTC' });
    expect(await doneSteps(atProperty)).toEqual(['facility']);
    await updateFacilityOptions({
      tenantId: atProperty,
      facilityId,
      options: { paymentMode: 'at_property' },
      actor: TEST_ACTOR,
    });
    expect(await doneSteps(atProperty)).toEqual(['facility', 'payments']);
    await createRoomWithDevice({ tenantId: atProperty, facilityId, label: '1' });

    // Another tenant's rows tick nothing here.
    const empty = (await createTenant({ name: `Empty ${tag()}` })).id;
    expect(await doneSteps(empty)).toEqual([]);
  });
});
