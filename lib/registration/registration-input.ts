import { z } from 'zod';
import { imageTypeOf, MAX_PASSPORT_IMAGE_BYTES, MAX_REGISTER_GUESTS } from './image-type';

export { imageTypeOf, MAX_PASSPORT_IMAGE_BYTES, MAX_REGISTER_GUESTS };

/** A data URL's base64 payload (any declared type: the content decides), or null when it is not one. */
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w-]+=[\w.-]+)*;base64,([A-Za-z0-9+/]*={0,2})$/;
/** The longest data URL a 5 MB image makes, with room for its header. */
const MAX_DATA_URL_LENGTH = Math.ceil(MAX_PASSPORT_IMAGE_BYTES / 3) * 4 + 200;

export type PassportImage = { base64: string; type: 'image/jpeg' | 'image/png'; bytes: number };

/** Base64 characters enough for the longest magic `imageTypeOf` reads (12 characters, 9 bytes; PNG's is 8). */
const HEAD_BASE64_CHARS = 12;

/**
 * Reads a passport image's data URL: its bytes' type and size, or what is wrong with it (no bytes are kept but the
 * base64). Only the first bytes are decoded, for the type; the size is counted from the base64's length and padding.
 * The whole image is decoded (and encrypted) by PostgreSQL, which checks both again (app_registration_replace).
 */
export function readPassportImage(
  dataUrl: string,
): { image: PassportImage } | { problem: 'not_data_url' | 'too_large' | 'not_image' } {
  if (dataUrl.length > MAX_DATA_URL_LENGTH) return { problem: 'too_large' };
  const match = DATA_URL.exec(dataUrl);
  const base64 = match?.[1];
  if (base64 === undefined || base64.length % 4 !== 0) return { problem: 'not_data_url' };
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = (base64.length / 4) * 3 - padding;
  if (bytes > MAX_PASSPORT_IMAGE_BYTES) return { problem: 'too_large' };
  const type = imageTypeOf(Buffer.from(base64.slice(0, HEAD_BASE64_CHARS), 'base64'));
  if (!type) return { problem: 'not_image' };
  return { image: { base64, type, bytes } };
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
/** Whether a code is an ISO 3166-1 alpha-2 country (or territory) the runtime's CLDR data names. */
export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  try {
    return REGIONS.of(code) !== code;
  } catch {
    return false;
  }
}

const text = (max: number) => z.string().trim().min(1, 'required').max(max);

/**
 * One guest of the register as the wire has it. `addressInJapan` (not in the contract's list; optional,
 * false when absent) is how the register knows a guest lives in Japan: the form asks it, the address
 * itself is free text (decision 028).
 */
const ZRegisterGuestSchema = z.object({
  name: text(200),
  address: text(500),
  addressInJapan: z.boolean().optional(),
  nationality: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code'),
  occupation: z.string().trim().max(100).optional().nullable(),
  passportNumber: z
    .string()
    .trim()
    .max(40)
    .regex(/^[A-Za-z0-9<-]*$/, 'letters and digits only')
    .optional()
    .nullable(),
  passportImage: z.string().optional().nullable(),
});

/** `PUT /api/guest/{token}/registration`: 1–10 guests; a foreign guest with no address in Japan needs the passport. */
export const ZRegistrationBodySchema = z
  .object({ guests: z.array(ZRegisterGuestSchema).min(1).max(MAX_REGISTER_GUESTS) })
  .superRefine((body, ctx) => {
    body.guests.forEach((guest, index) => {
      if (guest.passportImage) {
        const read = readPassportImage(guest.passportImage);
        if ('problem' in read)
          ctx.addIssue({
            code: 'custom',
            path: ['guests', index, 'passportImage'],
            message:
              read.problem === 'too_large'
                ? 'must be at most 5 MB'
                : read.problem === 'not_image'
                  ? 'must be a JPEG or PNG image'
                  : 'must be a base64 data URL',
            params: { reason: read.problem },
          });
      }
      if (guest.nationality !== 'JP' && !guest.addressInJapan) {
        if (!guest.passportNumber)
          ctx.addIssue({
            code: 'custom',
            path: ['guests', index, 'passportNumber'],
            message: 'required for a guest who is not Japanese and has no address in Japan',
          });
        if (!guest.passportImage)
          ctx.addIssue({
            code: 'custom',
            path: ['guests', index, 'passportImage'],
            message: 'required for a guest who is not Japanese and has no address in Japan',
          });
      }
    });
  });

export type RegistrationBody = z.infer<typeof ZRegistrationBodySchema>;

/** The register as app_registration_replace takes it (jsonb): the images' base64 only, their types found again there. */
export function registerJson(body: RegistrationBody): string {
  return JSON.stringify(
    body.guests.map((guest) => {
      const image = guest.passportImage ? readPassportImage(guest.passportImage) : null;
      return {
        name: guest.name,
        address: guest.address,
        addressInJapan: guest.addressInJapan ?? false,
        nationality: guest.nationality,
        occupation: guest.occupation || null,
        passportNumber: guest.passportNumber || null,
        passportImage: image && 'image' in image ? image.image.base64 : null,
      };
    }),
  );
}
