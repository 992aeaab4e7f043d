'use server';

import { z } from 'zod';
import { ZRoomFormSchema } from '@/lib/rooms/room-input';
import { archiveRoom, restoreRoom } from '@/lib/rooms/archive-room';
import { updateRoom } from '@/lib/rooms/update-room';
import { createRoom } from '@/lib/rooms/create-room';
import { refuse, staffAction } from '@/app/_server/action';

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
