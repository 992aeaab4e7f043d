import type { Actor } from '../audit/actor';
import { writeAuditEvent } from '../audit/write-audit-event';
import { asService, runStatements, sqlLiteral, statement, withTenant } from '../db/tx';
import { AppError } from '../errors';

/** What the database holds at most (room_type_photos' checks): six a type, 1 MiB each. */
export const PHOTO_LIMITS = { perType: 6, bytes: 1024 * 1024 } as const;

export type PhotoType = 'image/jpeg' | 'image/png' | 'image/webp';

/**
 * The image type the bytes themselves say (their signature), or null: a file is what it contains,
 * not what its name or the browser's guess calls it.
 */
export function photoTypeOf(bytes: Uint8Array): PhotoType | null {
  const starts = (offset: number, ...signature: number[]) => signature.every((b, i) => bytes[offset + i] === b);
  if (bytes.length >= 3 && starts(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 8 && starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  // RIFF....WEBP
  if (bytes.length >= 12 && starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

/**
 * Adds a photo to one of the tenant's room types in the first free place of six, audited
 * `room_type.photo_added`. Bytes that are not a JPEG, PNG or WebP, or over 1 MiB, are `invalid_request`;
 * a type with six photos is `conflict` (the unique position decides when two uploads race); another
 * tenant's type is `not_found`.
 */
export async function addRoomTypePhoto(input: {
  tenantId: string;
  roomTypeId: string;
  bytes: Uint8Array;
  alt: string;
  actor: Actor;
}): Promise<{ id: string; position: number }> {
  const { tenantId, roomTypeId, bytes, actor } = input;
  const alt = input.alt.trim().slice(0, 200);
  const contentType = photoTypeOf(bytes);
  if (!contentType)
    throw new AppError('invalid_request', 'A photo must be a JPEG, PNG or WebP image.', { field: 'photo' });
  if (bytes.length > PHOTO_LIMITS.bytes)
    throw new AppError('invalid_request', 'A photo may be at most 1 MB.', { field: 'photo' });
  return asService({ tenantId }, async (tx) => {
    const type = await tx.roomType.findFirst({
      where: { tenantId, id: roomTypeId },
      select: { name: true, photos: { select: { position: true } } },
    });
    if (!type) throw new AppError('not_found', 'No such room type.');
    const taken = new Set(type.photos.map((p) => p.position));
    const position = [0, 1, 2, 3, 4, 5].find((p) => !taken.has(p));
    if (position === undefined)
      throw new AppError('conflict', `A room type has at most ${PHOTO_LIMITS.perType} photos.`, { field: 'photo' });
    // A concurrent upload that took the same place is the unique key's 23505: reported as conflict, nothing written.
    const { id } = await tx.roomTypePhoto.create({
      data: { tenantId, roomTypeId, position, contentType, bytes: Buffer.from(bytes), alt },
      select: { id: true },
    });
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room_type.photo_added',
      subject: { type: 'room_type', id: roomTypeId },
      metadata: { name: type.name, photoId: id, position, contentType, bytes: bytes.length },
    });
    return { id, position };
  });
}

/** Removes one photo of the tenant's room type, audited `room_type.photo_removed`; an unknown one is `not_found`. */
export async function removeRoomTypePhoto(input: {
  tenantId: string;
  roomTypeId: string;
  photoId: string;
  actor: Actor;
}): Promise<{ removed: true }> {
  const { tenantId, roomTypeId, photoId, actor } = input;
  return asService({ tenantId }, async (tx) => {
    const { count } = await tx.roomTypePhoto.deleteMany({ where: { tenantId, roomTypeId, id: photoId } });
    if (count !== 1) throw new AppError('not_found', 'No such photo.');
    await writeAuditEvent(tx, {
      tenantId,
      actor,
      action: 'room_type.photo_removed',
      subject: { type: 'room_type', id: roomTypeId },
      metadata: { photoId },
    });
    return { removed: true };
  });
}

export type PhotoFile = { contentType: PhotoType; bytes: Uint8Array };

/** One photo of the tenant's (row-level security: another tenant's is null), for the manager's page. */
export async function readRoomTypePhoto({ tenantId, photoId }: { tenantId: string; photoId: string }) {
  return withTenant({ tenantId }, async (tx): Promise<PhotoFile | null> => {
    const photo = await tx.roomTypePhoto.findFirst({
      where: { tenantId, id: photoId },
      select: { contentType: true, bytes: true },
    });
    return photo ? { contentType: photo.contentType as PhotoType, bytes: photo.bytes } : null;
  });
}

/**
 * A photo of a room type on sale at the published booking site of `slug`, or null: an unpublished site's,
 * an archived type's and another facility's photos are not there.
 */
export async function readPublicPhoto({ slug, photoId }: { slug: string; photoId: string }): Promise<PhotoFile | null> {
  const [rows] = await runStatements({ role: 'app_service' }, [
    statement<{ content_type: PhotoType; bytes: Uint8Array }>(
      `select p.content_type, p.bytes
         from app_public_facility(${sqlLiteral(slug, 'text')}) f
         join room_types t on t.tenant_id = f.tenant_id and t.facility_id = f.facility_id and t.archived_at is null
         join room_type_photos p on p.tenant_id = t.tenant_id and p.room_type_id = t.id
        where p.id = ${sqlLiteral(photoId, 'uuid')}`,
    ),
  ]);
  const row = rows![0];
  return row ? { contentType: row.content_type, bytes: row.bytes } : null;
}

/** A photo as an HTTP answer: cached for good, since a photo's id never names other bytes. */
export function photoResponse(photo: PhotoFile, scope: 'public' | 'private'): Response {
  return new Response(Buffer.from(photo.bytes), {
    headers: {
      'content-type': photo.contentType,
      'content-length': String(photo.bytes.length),
      'cache-control': `${scope}, max-age=31536000, immutable`,
      'x-content-type-options': 'nosniff',
    },
  });
}
