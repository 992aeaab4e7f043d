import type { KeyKind } from '../db/generated/enums';
import type { KeyState } from './lifecycle';

/** An access_keys row as SQL functions return it (snake_case). */
export type AccessKeyRow = {
  id: string;
  tenant_id: string;
  reservation_id: string;
  check_in_id: string | null;
  room_id: string;
  status: KeyState;
  pin: string;
  valid_from: Date;
  expires_at: Date;
  vendor_sync: 'pending' | 'synced' | 'failed';
  revoked_reason: string | null;
  kind?: KeyKind;
};

/** The `key` of API.md: `pin` is null whenever the key is not live — an ended key's PIN is never shown again. */
export type KeyView = {
  id: string;
  kind: KeyKind;
  status: KeyState;
  pin: string | null;
  validFrom: string;
  expiresAt: string;
  vendorSync: 'pending' | 'synced' | 'failed';
  revokedReason: string | null;
};

type KeyLike = {
  id: string;
  /** Rows from before keys had kinds, and SQL functions that do not return it, are guest keys. */
  kind?: KeyKind;
  status: KeyState;
  pin: string;
  validFrom?: Date;
  valid_from?: Date;
  expiresAt?: Date;
  expires_at?: Date;
  vendorSync?: KeyView['vendorSync'];
  vendor_sync?: KeyView['vendorSync'];
  revokedReason?: string | null;
  revoked_reason?: string | null;
};

/** Maps a key from either Prisma (camelCase) or raw SQL (snake_case) to the API's shape; an ended key's PIN stays behind. */
export function toKeyView(key: KeyLike): KeyView {
  return {
    id: key.id,
    kind: key.kind ?? 'guest',
    status: key.status,
    pin: key.status === 'pre_issued' || key.status === 'active' ? key.pin : null,
    validFrom: (key.validFrom ?? key.valid_from)!.toISOString(),
    expiresAt: (key.expiresAt ?? key.expires_at)!.toISOString(),
    vendorSync: (key.vendorSync ?? key.vendor_sync)!,
    revokedReason: key.revokedReason ?? key.revoked_reason ?? null,
  };
}

/**
 * What a guest may see of a key: no PIN once it has ended (or is past its end, before the sweep
 * gets to it), and none while the lock refused it — a PIN that cannot open the door is never shown.
 */
export function toGuestKeyView(key: KeyLike, now = new Date()): KeyView {
  return forGuest(toKeyView(key), now);
}

/** `toGuestKeyView` for a key already in the API's shape. */
export function forGuest(view: KeyView, now = new Date()): KeyView {
  const dead = view.vendorSync === 'failed' || Date.parse(view.expiresAt) <= now.getTime();
  return dead ? { ...view, pin: null } : view;
}
