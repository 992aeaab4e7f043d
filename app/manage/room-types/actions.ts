'use server';

import { z } from 'zod';
import { ZRoomTypeFormSchema } from '@/lib/room-types/room-type-input';
import { archiveRoomType, createRoomType, updateRoomType } from '@/lib/room-types/save-room-type';
import { addRoomTypePhoto, PHOTO_LIMITS, photoTypeOf, removeRoomTypePhoto } from '@/lib/room-types/photos';
import { refuse, staffAction } from '@/app/_server/action';

const MANAGE = { path: '/manage', type: 'layout' } as const;
const TEXT = 'text' as const;

/** Adds a room type to one of the tenant's facilities, or changes one's name, capacity and prices; audited. */
export const saveRoomTypeAction = staffAction(
  {
    name: 'saveRoomType',
    permission: 'property.manage',
    input: ZRoomTypeFormSchema,
    echo: {
      facilityId: TEXT,
      name: TEXT,
      description: TEXT,
      capacity: TEXT,
      weekday: TEXT,
      weekend: TEXT,
      holiday: TEXT,
    },
    revalidate: MANAGE,
  },
  async ({ input: { roomTypeId, facilityId, currency, settings }, tenantId, actor }) => {
    if (roomTypeId)
      return { ...(await updateRoomType({ tenantId, roomTypeId, settings, currency, actor })), created: false };
    if (!facilityId) return refuse('roomTypes.error.facility', { field: 'facilityId' });
    const { id } = await createRoomType({ tenantId, facilityId, settings, currency, actor });
    return { id, changed: [], created: true };
  },
);

/** Archives a room type: no longer sold; audited. */
export const archiveRoomTypeAction = staffAction(
  {
    name: 'archiveRoomType',
    permission: 'property.manage',
    input: z.object({ roomTypeId: z.uuid() }),
    revalidate: MANAGE,
  },
  ({ input: { roomTypeId }, tenantId, actor }) => archiveRoomType({ tenantId, roomTypeId, actor }),
);

/** Adds a photo (a JPEG, PNG or WebP of at most 1 MB, already scaled down in the browser) to a room type; audited. */
export const addRoomTypePhotoAction = staffAction(
  {
    name: 'addRoomTypePhoto',
    permission: 'property.manage',
    input: z.object({
      roomTypeId: z.uuid(),
      photo: z.instanceof(Blob, { message: 'Choose a photo.' }),
      alt: z.string().max(200).default(''),
    }),
    echo: { alt: TEXT },
    revalidate: MANAGE,
  },
  async ({ input: { roomTypeId, photo, alt }, tenantId, actor }) => {
    if (photo.size > PHOTO_LIMITS.bytes) return refuse('roomTypes.photos.error.tooLarge', { field: 'photo' });
    const bytes = new Uint8Array(await photo.arrayBuffer());
    if (!photoTypeOf(bytes)) return refuse('roomTypes.photos.error.type', { field: 'photo' });
    return addRoomTypePhoto({ tenantId, roomTypeId, bytes, alt, actor });
  },
);

/** Removes one of a room type's photos; audited. */
export const removeRoomTypePhotoAction = staffAction(
  {
    name: 'removeRoomTypePhoto',
    permission: 'property.manage',
    input: z.object({ roomTypeId: z.uuid(), photoId: z.uuid() }),
    revalidate: MANAGE,
  },
  ({ input: { roomTypeId, photoId }, tenantId, actor }) =>
    removeRoomTypePhoto({ tenantId, roomTypeId, photoId, actor }),
);
