'use server';

import { z } from 'zod';
import { ZRoomFormSchema } from '@/lib/rooms/room-input';
import { archiveRoom, restoreRoom } from '@/lib/rooms/archive-room';
import { updateRoom } from '@/lib/rooms/update-room';
import { createRoom } from '@/lib/rooms/create-room';
import { refuse, staffAction } from '@/app/_server/action';
import { rotateRoomIcalUrl } from '@/lib/ical/export-feed';
import { addIcalFeed, fetchIcalFeedNow, removeIcalFeed, ZIcalFeedInputSchema } from '@/lib/ical/feeds';

const MANAGE = { path: '/manage', type: 'layout' } as const;
const TEXT = 'text' as const;

/** Adds a room to one of the tenant's facilities, or changes a room's label and rate; audited. */
export const saveRoomAction = staffAction(
  {
    name: 'saveRoom',
    permission: 'property.manage',
    input: ZRoomFormSchema,
    echo: {
      facilityId: TEXT,
      label: TEXT,
      rate: TEXT,
      currency: TEXT,
      rateUnit: TEXT,
      rateName: TEXT,
      pinLength: TEXT,
      roomTypeId: TEXT,
    },
    revalidate: MANAGE,
  },
  async ({ input: { roomId, facilityId, roomTypeId, settings }, tenantId, actor }) => {
    if (roomId) return { ...(await updateRoom({ tenantId, roomId, settings, roomTypeId, actor })), created: false };
    if (!facilityId) return refuse('rooms.error.facility', { field: 'facilityId' });
    const { id } = await createRoom({ tenantId, facilityId, ...settings, roomTypeId, actor });
    return { id, changed: [], created: true };
  },
);

/** Archives a room (refused while it has stays to come) or restores one; audited. */
export const archiveRoomAction = staffAction(
  {
    name: 'archiveRoom',
    permission: 'property.manage',
    input: z.object({ roomId: z.uuid(), archive: z.enum(['true', 'false']) }),
    revalidate: MANAGE,
  },
  ({ input: { roomId, archive }, tenantId, actor }) =>
    archive === 'true' ? archiveRoom({ tenantId, roomId, actor }) : restoreRoom({ tenantId, roomId, actor }),
);

/** Imports a channel's iCal feed into a room or a room type and fetches it at once; audited. */
export const addIcalFeedAction = staffAction(
  {
    name: 'addIcalFeed',
    permission: 'property.manage',
    input: ZIcalFeedInputSchema.extend({ roomId: z.uuid().optional(), roomTypeId: z.uuid().optional() }).refine(
      (input) => (input.roomId === undefined) !== (input.roomTypeId === undefined),
      { path: ['roomId'] },
    ),
    echo: { url: TEXT, channel: TEXT },
    revalidate: MANAGE,
  },
  async ({ input: { roomId, roomTypeId, url, channel }, tenantId, actor }) => {
    const { id } = await addIcalFeed({
      tenantId,
      url,
      channel,
      actor,
      ...(roomId ? { roomId } : { roomTypeId: roomTypeId! }),
    });
    return { id };
  },
);

/** Stops importing a feed (the stays it booked stay); audited. */
export const removeIcalFeedAction = staffAction(
  {
    name: 'removeIcalFeed',
    permission: 'property.manage',
    input: z.object({ feedId: z.uuid() }),
    revalidate: MANAGE,
  },
  ({ input: { feedId }, tenantId, actor }) => removeIcalFeed({ tenantId, feedId, actor }),
);

/** Fetches a feed now instead of at its next turn. */
export const fetchIcalFeedNowAction = staffAction(
  {
    name: 'fetchIcalFeedNow',
    permission: 'property.manage',
    input: z.object({ feedId: z.uuid() }),
    revalidate: MANAGE,
  },
  ({ input: { feedId }, tenantId }) => fetchIcalFeedNow({ tenantId, feedId }),
);

/** Gives the room's export a new secret URL; the old one stops working at once; audited. */
export const rotateIcalUrlAction = staffAction(
  {
    name: 'rotateIcalUrl',
    permission: 'property.manage',
    input: z.object({ roomId: z.uuid() }),
    revalidate: MANAGE,
  },
  ({ input: { roomId }, tenantId, actor }) => rotateRoomIcalUrl({ tenantId, roomId, actor }),
);
