import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_PASSPORT_IMAGE_BYTES, readPassportImage } from './registration-input';

// A passport photo is checked by its first bytes and its size is counted from the base64 itself: the web process
// never decodes a whole image (PostgreSQL does, in app_registration_replace, where it encrypts it).

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** `head` followed by zeros, `size` bytes in all. */
const image = (head: Buffer, size: number) => Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length))]);
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('readPassportImage', () => {
  it('reads the type from the bytes and the size from the base64, whatever the padding', () => {
    // Sizes 3n, 3n+1 and 3n+2 end the base64 with no, two and one `=`.
    for (const size of [9, 10, 11, 3000, 3001, 3002]) {
      expect(readPassportImage(dataUrl('image/jpeg', image(JPEG, size)))).toEqual({
        image: { base64: image(JPEG, size).toString('base64'), type: 'image/jpeg', bytes: size },
      });
      // The data URL's own type is not believed: the bytes are.
      expect(readPassportImage(dataUrl('image/jpeg', image(PNG, size)))).toMatchObject({
        image: { type: 'image/png', bytes: size },
      });
    }
  });

  it('refuses what is not a JPEG or a PNG, not a base64 data URL, or larger than 5 MB', () => {
    expect(readPassportImage(dataUrl('image/png', Buffer.from('this is a text file, not a passport')))).toEqual({
      problem: 'not_image',
    });
    expect(readPassportImage(dataUrl('image/png', PNG.subarray(0, 7)))).toEqual({ problem: 'not_image' });
    expect(readPassportImage('data:image/png;base64,')).toEqual({ problem: 'not_image' });
    for (const notDataUrl of [
      'https://example.com/passport.png',
      `data:image/png,${PNG.toString('base64')}`,
      `data:image/png;base64,${PNG.toString('base64')}=`,
      `data:image/png;base64,${PNG.toString('base64').slice(1)}`,
      `data:image/png;base64,${PNG.toString('base64').replace('=', '')}=A`,
      'data:image/png;base64,iVBO*w0K',
    ])
      expect({ notDataUrl, ...readPassportImage(notDataUrl) }).toEqual({ notDataUrl, problem: 'not_data_url' });
    expect(readPassportImage(dataUrl('image/jpeg', image(JPEG, MAX_PASSPORT_IMAGE_BYTES)))).toMatchObject({
      image: { type: 'image/jpeg', bytes: MAX_PASSPORT_IMAGE_BYTES },
    });
    for (const size of [MAX_PASSPORT_IMAGE_BYTES + 1, MAX_PASSPORT_IMAGE_BYTES + 2, MAX_PASSPORT_IMAGE_BYTES + 3])
      expect({ size, ...readPassportImage(dataUrl('image/jpeg', image(JPEG, size))) }).toEqual({
        size,
        problem: 'too_large',
      });
  });

  it('decodes no more of an image than its first bytes', () => {
    const url = dataUrl('image/png', image(PNG, MAX_PASSPORT_IMAGE_BYTES));
    const decode = vi.spyOn(Buffer, 'from');
    expect(readPassportImage(url)).toMatchObject({ image: { type: 'image/png' } });
    const decoded = decode.mock.calls.map(([value]) => (typeof value === 'string' ? value.length : 0));
    expect(Math.max(0, ...decoded)).toBeLessThanOrEqual(16);
  });
});
