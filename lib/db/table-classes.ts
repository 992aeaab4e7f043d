// Every table of the public schema, in the class it takes when the database is distributed with
// Citus (DESIGN.md, Scaling out; docs/SCALING.md). lib/db/citus-rules.test.ts reads the catalog and
// fails for a table missing here and for a table that breaks the rules of its class.
//
// - tenant: distributed by tenant_id (create_distributed_table(…, 'tenant_id'), all colocated). Its
//   primary key, unique indexes and exclusion constraints include tenant_id; its foreign keys to other
//   tenant tables include tenant_id on both sides; it refers to no coordinator table.
// - reference: small, global, read with every tenant's rows or to find a tenant from a global value;
//   copied to every node (create_reference_table). It refers to no tenant or coordinator table.
// - coordinator: stays a local table on the coordinator (never distributed); no tenant table refers
//   to it and it refers to no tenant table.

export type TTableClass = 'tenant' | 'reference' | 'coordinator';

export const TENANT_TABLES = [
  'facilities',
  'rooms',
  'guests',
  'booking_groups',
  'reservations',
  'check_ins',
  'guest_links',
  'access_keys',
  'room_holds',
  'locks',
  'room_locks',
  'key_lock_codes',
  'audit_events',
  'api_keys',
  'provider_secrets',
  'subscriptions',
  'billing_failures',
  'booking_sources',
  'messages',
  'caught_mail',
  'room_types',
  'payments',
  'booking_requests',
  'room_type_photos',
  'stay_extensions',
  'guest_registrations',
  'guest_messages',
  'ical_feeds',
  'ical_feed_events',
  'room_ical_exports',
  'door_entries',
  'remote_unlocks',
  'lock_record_cursors',
] as const;

/** Reference tables, each with the reason it is global. */
export const REFERENCE_TABLES: Record<string, string> = {
  tenants:
    'one row per tenant, the target of every tenant table’s tenant_id foreign key (distributed → reference is allowed); holds the Stripe account id → tenant lookup (unique stripe_account_id)',
  users: 'a person signs in before any tenant is chosen (unique email); tenant tables refer to users for who did what',
  memberships: 'which tenants a user may enter, read at sign-in by user id before a tenant is known',
  staff_invitations:
    'a pending membership: found by its token hash (the link in the mail) and read at sign-in by user id, before a tenant is known',
  password_resets: 'a reset link of a user account (no tenant): found by its token hash before anyone is signed in',
  sign_ups:
    'a pending sign-up, before its tenant exists: found by its token hash before anyone is signed in; its link makes the tenant',
  guest_link_tokens: 'lookup: a guest link’s token hash → (tenant_id, guest_link_id), kept in step by triggers',
  api_key_secrets: 'lookup: an API key’s secret hash → (tenant_id, api_key_id), kept in step by triggers',
  stripe_payment_intents:
    'lookup: a Stripe payment intent id → (tenant_id, booking_group_id), kept in step by triggers',
  facility_slugs:
    'lookup: a booking site’s slug → (tenant_id, facility_id), found before any tenant is known; kept by a trigger',
  stripe_checkout_sessions:
    'lookup: a Stripe Checkout Session id → (tenant_id, booking_group_id), kept in step by triggers',
  booking_request_ids:
    'lookup: a public booking request’s id → its tenant (the confirmation names only the id), kept by a trigger',
  ical_export_tokens:
    'lookup: an iCal export URL’s token hash → (tenant_id, room_id), found before any tenant is known; kept by a trigger',
  lock_devices:
    'lookup: a lock device (provider, account, device id) → the one (tenant_id, lock_id) holding it, kept in step by a trigger',
};

/** Coordinator tables, each with the reason it stays local. */
export const COORDINATOR_TABLES: Record<string, string> = {
  _prisma_migrations: 'the migrator’s own bookkeeping (lib/db/migrator.ts); one history for the whole cluster',
  rate_limits: 'rate-limit windows keyed by bucket (IP address, key, user), often before any tenant is known',
  rate_buckets: 'token buckets keyed like rate_limits; short-lived rows, written at every request',
  account_messages:
    'the outbox of a person’s mail (an invitation’s, a reset’s or a sign-up’s link), which belongs to no tenant; sent by the worker like the job queue it feeds',
  caught_account_mail: 'what the local mail catcher caught of account mail: the operator’s to read, no tenant’s',
  worker_heartbeats: 'liveness of the install’s worker processes, which serve every tenant',
  webhook_events:
    'the webhook inbox: a Stripe delivery is acknowledged (stored, deduped on Stripe’s globally unique event id) before its tenant is known; rows of providers signed per tenant carry tenant_id',
  incidents:
    'open conditions, some of the whole install (tenant_id null: a worker or the lock provider down) seen by every tenant; one open row per condition',
};

export function tableClass(table: string): TTableClass | null {
  if ((TENANT_TABLES as readonly string[]).includes(table)) return 'tenant';
  if (table in REFERENCE_TABLES) return 'reference';
  if (table in COORDINATOR_TABLES) return 'coordinator';
  return null;
}

/**
 * SQL functions of the public schema that read tenant tables without taking the tenant's id
 * (`p_tenant_id uuid`), each with the reason. `via`: the lookup table the function must go through
 * first (the test checks that it does).
 */
export const CROSS_TENANT_FUNCTIONS: Record<string, { reason: string; via?: string }> = {
  app_complete_sign_up: {
    reason:
      'a sign-up’s link makes a new tenant: its first facility and membership are written in the transaction that creates it, so there is no tenant id to take yet',
  },
  app_api_key_by_hash: {
    reason: 'a presented API key has only its hash: api_key_secrets finds its tenant and key',
    via: 'api_key_secrets',
  },
  app_guest_link_reservation: {
    reason: 'a guest has only the link’s token: its hash finds the tenant and link in guest_link_tokens',
    via: 'guest_link_tokens',
  },
  app_guest_tenant_id: {
    reason: 'the guest link’s tenant, through app_guest_link_reservation',
    via: 'app_guest_link_reservation',
  },
  app_guest_reservation_id: {
    reason: 'the guest link’s reservation, through app_guest_link_reservation',
    via: 'app_guest_link_reservation',
  },
  app_guest_ended_stay: {
    reason: 'the guest link’s ended stay, through app_guest_link_reservation',
    via: 'app_guest_link_reservation',
  },
  app_guest_keys_hidden: {
    reason: 'whether the guest link’s keys are hidden (self check-in not done), through app_guest_link_reservation',
    via: 'app_guest_link_reservation',
  },
  app_guest_self_service: {
    reason: 'what the guest link’s stay still needs (check-in, register, payment), through app_guest_link_reservation',
    via: 'app_guest_link_reservation',
  },
  app_registration_complete: {
    reason:
      'takes its tenant as p_tenant (the name docs/API.md’s guest self-service contract gives it), and reads only that tenant’s rows',
  },
  app_public_facility: {
    reason: 'a guest on a booking site has only its slug: facility_slugs finds the tenant and facility',
    via: 'facility_slugs',
  },
  app_registration_rotate: {
    reason: 'the operator re-encrypts every tenant’s guest registers under a new data key (install-wide by nature)',
  },
  app_secret_rotate: {
    reason: 'the operator re-encrypts every tenant’s provider secrets under a new data key (install-wide by nature)',
  },
};
