-- Issue 15, items 10 and 11: the manager's overview counts the last 14 days per day from indexes,
-- and a booking dropped for want of a booking source stops being an incident once the mapping exists.

-- 1. Indexes for the overview (a tenant with a million reservations reads 14 days, not its history).
--    Occupancy uses the exclusion constraint's GiST index (tenant, room, range) and the webhook charts
--    webhook_events_tenant_time; incidents use incidents_one_open_per_condition. What had no index:
-- Check-ins per day: check_ins is indexed by reservation only.
create index check_ins_tenant_time on check_ins (tenant_id, created_at);
-- Keys issued per day: access_keys had no index by tenant and time.
create index access_keys_tenant_time on access_keys (tenant_id, created_at);
-- Live keys waiting for or failed on their lock: few at any time, so a small partial index answers
-- the tile without reading every synced key.
create index access_keys_unsynced on access_keys (tenant_id, vendor_sync)
  where vendor_sync <> 'synced' and status in ('pre_issued', 'active');

-- 2. A booking source added (or re-pointed) for a provider's event type resolves the open incident of
--    bookings dropped for that type, whoever adds it (the manager's page, the CLI, the API).
create function booking_sources_resolve_unmapped() returns trigger
language plpgsql as $$
begin
  update incidents set resolved_at = now(), updated_at = now()
   where tenant_id = new.tenant_id
     and condition_key = 'booking_unmapped:' || new.provider::text || ':' || new.event_type
     and resolved_at is null;
  return null;
end $$;

create trigger booking_sources_resolve_unmapped after insert or update on booking_sources
  for each row execute function booking_sources_resolve_unmapped();
