import { z } from 'zod';
import { LOCALES, type Locale } from '../i18n/locales';

/**
 * What a guest needs at the door, written by the manager per facility and language
 * (facilities.guest_info). Address, the desk's phone and the check-out time are the facility's own
 * columns; these are the free texts. Every field is optional: the guest page shows what is there.
 */
export const GUEST_INFO_FIELDS = ['directions', 'keypad', 'wifiName', 'wifiPassword', 'houseRules'] as const;
export type GuestInfoField = (typeof GUEST_INFO_FIELDS)[number];

const longText = z.string().trim().max(2000);
const shortText = z.string().trim().max(100);

export const ZGuestInfoText = z
  .object({
    /** How to find the building and the room. */
    directions: longText,
    /** How to use the keypad (e.g. "Touch the keypad to wake it, enter the PIN, then ✓"). */
    keypad: longText,
    wifiName: shortText,
    wifiPassword: shortText,
    houseRules: longText,
  })
  .partial()
  .strict();
export type GuestInfoText = z.infer<typeof ZGuestInfoText>;

export const ZGuestInfo = z.object({ en: ZGuestInfoText.optional(), ja: ZGuestInfoText.optional() }).strict();
export type GuestInfo = z.infer<typeof ZGuestInfo>;

/** The stored JSON, read leniently: anything that does not parse reads as "nothing written". */
export function readGuestInfo(stored: unknown): GuestInfo {
  const parsed = ZGuestInfo.safeParse(stored);
  return parsed.success ? parsed.data : {};
}

/**
 * The texts for one language: that language's where written, else the other language's, field by
 * field — a Japanese guest at an English-only facility still learns the Wi-Fi password.
 */
export function guestInfoFor(info: GuestInfo, locale: Locale): GuestInfoText {
  const order = [locale, ...LOCALES.filter((l) => l !== locale)];
  const out: GuestInfoText = {};
  for (const field of GUEST_INFO_FIELDS) {
    for (const l of order) {
      const value = info[l]?.[field];
      if (value) {
        out[field] = value;
        break;
      }
    }
  }
  return out;
}

/** A map link for an address (opens the phone's map app or the browser); null without an address. */
export function mapLinkFor(address: string | null | undefined): string | null {
  const trimmed = address?.trim();
  return trimmed ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(trimmed)}` : null;
}
