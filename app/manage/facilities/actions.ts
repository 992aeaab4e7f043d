'use server';

import { redirect } from 'next/navigation';
import { ZFacilityFormSchema } from '@/lib/facilities/facility-input';
import { GUEST_INFO_FIELDS } from '@/lib/facilities/guest-info';
import { updateFacility } from '@/lib/facilities/save-facility';
import { createFacility } from '@/lib/facilities/create-facility';
import { z } from 'zod';
import { ZFacilityOptionsFormSchema, ZSlugSchema } from '@/lib/facilities/facility-options';
import { publishFacility, unpublishFacility } from '@/lib/facilities/publish-facility';
import { updateFacilityOptions } from '@/lib/facilities/update-facility-options';
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
    'email',
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

/** Saves how a facility sells and lets guests in (currency, tax, payment, check-in, register, texts); audited. */
export const saveFacilityOptionsAction = staffAction(
  {
    name: 'saveFacilityOptions',
    permission: 'property.manage',
    input: ZFacilityOptionsFormSchema,
    echo: Object.fromEntries(
      [
        'currency',
        'country',
        'taxMode',
        'taxRate',
        'paymentMode',
        'checkInMode',
        'selfCheckInOpensHours',
        'registration',
        'termsText',
        'privacyText',
      ].map((name) => [name, TEXT]),
    ),
    revalidate: { path: '/manage', type: 'layout' },
  },
  ({ input: { facilityId, options }, tenantId, actor }) =>
    updateFacilityOptions({ tenantId, facilityId, options, actor }),
);

/** Publishes a facility's booking site at a slug (or moves it); a slug any facility holds is refused. */
export const publishFacilityAction = staffAction(
  {
    name: 'publishFacility',
    permission: 'property.manage',
    input: z.object({ facilityId: z.uuid(), slug: ZSlugSchema }),
    echo: { slug: TEXT },
    revalidate: { path: '/manage', type: 'layout' },
  },
  ({ input: { facilityId, slug }, tenantId, actor }) => publishFacility({ tenantId, facilityId, slug, actor }),
);

/** Takes a facility's booking site down (its slug stays the facility's). */
export const unpublishFacilityAction = staffAction(
  {
    name: 'unpublishFacility',
    permission: 'property.manage',
    input: z.object({ facilityId: z.uuid() }),
    revalidate: { path: '/manage', type: 'layout' },
  },
  ({ input: { facilityId }, tenantId, actor }) => unpublishFacility({ tenantId, facilityId, actor }),
);
