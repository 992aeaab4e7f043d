/** Staff roles and what each may do: one typed map, checked by every guarded entry point. */
export const ROLES = ['front_desk', 'manager'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'desk.view',
  'checkin.complete',
  'bookings.create',
  'keys.revoke',
  'keys.reveal_pin',
  'guest_links.rotate',
  'stays.change',
  'staff_codes.manage',
  'messages.resend',
  /** Payments taken at the property (cash, card terminal). */
  'payments.record',
  /** Opening a door now through its lock provider (remote unlock), with a reason. */
  'doors.unlock',
  'manage.view',
  'audit.view',
  'webhooks.view',
  'webhooks.replay',
  'incidents.view',
  'api_keys.manage',
  'secrets.manage',
  'locks.manage',
  'staff.manage',
  /** Facilities, rooms and booking sources. */
  'property.manage',
  'mailbox.view',
  /** The guest register's personal data (Japan's lodging law): read, passport images, the export. */
  'register.view',
  /** The tenant's own Stripe account (Connect onboarding). */
  'payments.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const FRONT_DESK: readonly Permission[] = [
  'desk.view',
  'checkin.complete',
  'bookings.create',
  'keys.revoke',
  'keys.reveal_pin',
  'guest_links.rotate',
  // A shift's stay changes: check-out, move, new dates, no-show, a new key; staff codes per room.
  'stays.change',
  'staff_codes.manage',
  'messages.resend',
  'payments.record',
  // A guest locked out, a delivery at the entrance: the desk opens the door, saying why.
  'doors.unlock',
];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  front_desk: FRONT_DESK,
  manager: PERMISSIONS,
};

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
