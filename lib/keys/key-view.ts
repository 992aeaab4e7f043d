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
};

/** The `key` of API.md. */
export type KeyView = {
  id: string;
  status: KeyState;
  pin: string;
  validFrom: string;
  expiresAt: string;
  vendorSync: 'pending' | 'synced' | 'failed';
  revokedReason: string | null;
};

type KeyLike = {
  id: string;
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

/** Maps a key from either Prisma (camelCase) or raw SQL (snake_case) to the API's shape. */
export function toKeyView(key: KeyLike): KeyView {
  return {
    id: key.id,
    status: key.status,
    pin: key.pin,
    validFrom: (key.validFrom ?? key.valid_from)!.toISOString(),
    expiresAt: (key.expiresAt ?? key.expires_at)!.toISOString(),
    vendorSync: (key.vendorSync ?? key.vendor_sync)!,
    revokedReason: key.revokedReason ?? key.revoked_reason ?? null,
  };
}
