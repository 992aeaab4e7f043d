'use server';

import { redirect } from 'next/navigation';
import { ZFacilityFormSchema } from '@/lib/facilities/facility-input';
import { GUEST_INFO_FIELDS } from '@/lib/facilities/guest-info';
import { updateFacility } from '@/lib/facilities/save-facility';
import { createFacility } from '@/lib/facilities/create-facility';
import { staffAction } from '@/app/_server/action';

const TEXT = 'text' as const;
/** Every field comes back on a refusal, so the form shows what was typed next to its error. */
const FACILITY_ECHO = Object.fromEntries(
  [
    'name',
    'timeZone',
    'bookingUnit',
    'checkInTime',
    'checkOutTime',
    'opensAt',
    'closesAt',
    'keyLeadMinutes',
    'earlyCheckInMinutes',
    'address',
    'phone',
    ...['en', 'ja'].flatMap((l) => GUEST_INFO_FIELDS.map((f) => `${l}.${f}`)),
  ].map((name) => [name, TEXT]),
);

/**
 * Saves the facility form: a new facility (then on to its rooms) or every setting of an existing
 * one, audited. Refused input writes nothing and comes back with a message per field.
 */
export const saveFacilityAction = staffAction(
  {
    name: 'saveFacility',
    permission: 'property.manage',
    input: ZFacilityFormSchema,
    echo: FACILITY_ECHO,
    revalidate: { path: '/manage', type: 'layout' },
  },
  async ({ input: { facilityId, settings }, tenantId, actor }) => {
    if (facilityId) return updateFacility({ tenantId, facilityId, settings, actor });
    const { id } = await createFacility({ tenantId, ...settings, actor });
    redirect(`/manage/rooms?facility=${id}&created=facility`);
  },
);
