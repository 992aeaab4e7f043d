import { describe, expect, it } from 'vitest';
import { guestInfoFor, mapLinkFor, readGuestInfo, ZGuestInfo } from './guest-info';

describe('guest information', () => {
  it('falls back to the other language field by field', () => {
    const info = readGuestInfo({ en: { wifiName: 'Sakura', keypad: 'Press ✓' }, ja: { keypad: '✓を押す' } });
    expect(guestInfoFor(info, 'ja')).toEqual({ keypad: '✓を押す', wifiName: 'Sakura' });
    expect(guestInfoFor(info, 'en')).toEqual({ keypad: 'Press ✓', wifiName: 'Sakura' });
  });

  it('reads anything malformed as nothing written, and refuses unknown fields and languages on write', () => {
    expect(readGuestInfo({ en: { keypad: 42 } })).toEqual({});
    expect(readGuestInfo(null)).toEqual({});
    expect(ZGuestInfo.safeParse({ fr: {} }).success).toBe(false);
    expect(ZGuestInfo.safeParse({ en: { pin: '1234' } }).success).toBe(false);
    expect(ZGuestInfo.safeParse({ en: { wifiName: 'x'.repeat(101) } }).success).toBe(false);
  });

  it('links an address to a map search, and nothing to no address', () => {
    expect(mapLinkFor(' 1-2-3 Asakusa, Tokyo ')).toBe(
      'https://www.google.com/maps/search/?api=1&query=1-2-3%20Asakusa%2C%20Tokyo',
    );
    expect(mapLinkFor('  ')).toBeNull();
    expect(mapLinkFor(null)).toBeNull();
  });
});
