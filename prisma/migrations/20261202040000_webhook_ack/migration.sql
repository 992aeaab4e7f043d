-- Every Stripe payment event (payment_intent.succeeded / payment_failed, charge.refunded) finds the
-- reservations of the booking groups holding its intent by `booking_group_id`
-- (lib/webhooks/stripe/resolve-group-reservations.ts), which no index served: each event scanned
-- the whole reservations table. Measured in `npm run bench:webhooks` (scenario 3): 6 ms of server
-- CPU per event at 4 000 reservations, and growing with every reservation ever booked — the
-- worker's backends then took the CPU the webhook routes needed to acknowledge. The query joins by
-- the group id alone (a row that crossed tenants must be seen), so the group id leads; the tenant
-- follows for a join that names it. Not unique, so Citus's rule for unique indexes does not apply.
create index reservations_booking_group on reservations (booking_group_id, tenant_id);
