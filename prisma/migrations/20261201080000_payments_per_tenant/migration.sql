-- Payments (issue 12, items 4 and 21).

-- 1. A PaymentIntent id is unique within its tenant: one tenant can neither squat another's intent
--    nor learn that it exists from payment_intent_in_use. A Stripe event finds its tenant through
--    its Connect account, then the intent within that tenant.
alter table booking_groups drop constraint booking_groups_payment_intent_id_key;
alter table booking_groups add constraint booking_groups_tenant_payment_intent_key unique (tenant_id, payment_intent_id);

-- 2. A Stripe event is applied once per subject, even when it is handled twice at the same moment
--    (a replay while the first run is in flight): the audit row of (tenant, action, subject, event)
--    is unique, and writers insert with ON CONFLICT DO NOTHING.
create unique index audit_events_once_per_stripe_event on audit_events (tenant_id, action, subject_id, (metadata->>'stripeEventId'))
  where metadata ? 'stripeEventId';

-- 3. Billing failures are counted per day in the property's time zone (the tenant's first facility,
--    UTC for a tenant without one), not per UTC day.
create function app_tenant_time_zone(p_tenant_id uuid) returns text
  language sql stable
  set search_path = pg_catalog, public
as $$
  select coalesce((select f.time_zone from facilities f where f.tenant_id = p_tenant_id order by f.created_at, f.id limit 1), 'UTC')
$$;
grant execute on function app_tenant_time_zone(uuid) to app_service, app_authenticated;
