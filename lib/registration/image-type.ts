// The register's limits and its image check, with no imports: the guest's phone checks a photo the
// same way before uploading it (app/k/[token]/_components/guest-register.tsx) as the server after.

/** The largest passport image the register takes, decoded (the contract's 5 MB, as MiB). */
export const MAX_PASSPORT_IMAGE_BYTES = 5 * 1024 * 1024;
/** How many guests one stay's register lists. */
export const MAX_REGISTER_GUESTS = 10;

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What an image's first bytes say it is: JPEG, PNG or neither (the data URL's own claim is never trusted). */
export function imageTypeOf(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (bytes.length >= PNG.length && starts(PNG)) return 'image/png';
  if (bytes.length >= JPEG.length && starts(JPEG)) return 'image/jpeg';
  return null;
}
