-- Audit rows get time-ordered ids (uuidv7(), PostgreSQL 18) instead of random ones. Every write that audits
-- (the expiry sweep: one row per expired key) inserts into the primary key (tenant_id, id); with random ids each
-- insert lands on a random leaf of an index that, with ten million rows, no longer fits in shared_buffers: a read
-- from the OS cache and, after each checkpoint, a whole page in the WAL (bench:history, the expiry sweep's p99).
-- Time-ordered ids append at the end of their tenant's range, on a leaf already in memory.
-- An audit id says when the row was written, as occurred_at beside it already does; nothing orders by id alone.
alter table audit_events alter column id set default uuidv7();
