-- What the provider said a lock holds at the last reconciliation (issue 14, item 5): the Locks page
-- shows it next to what we think the lock holds, without calling the provider on every page view.
-- Code ids and whose key each is, never a PIN.
alter table locks add column provider_codes jsonb;
alter table locks add column reconciled_at timestamptz;
alter table locks add column reconcile_error text;
