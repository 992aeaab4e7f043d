-- Issue 33 (item 2), the contract of POST /api/v1/locks/{id}/unlock: a remote unlock is requested (written before the
-- provider is asked), then pending (the provider has not confirmed: Seam's action attempt, or an answer lost on the
-- way), done or failed. 'unlocked' of the first version is 'done'.
alter table remote_unlocks drop constraint remote_unlocks_status_check;
update remote_unlocks set status = 'done' where status = 'unlocked';
alter table remote_unlocks add constraint remote_unlocks_status_check
  check (status in ('requested', 'pending', 'done', 'failed'));

-- Who asked, as the audit trail snapshots actors (a person, or an integration's API key), so the door.opened row of
-- the entry the unlock causes names the same actor; rows of the first version were a person or, without one, a key.
alter table remote_unlocks add column actor_type actor_type;
alter table remote_unlocks add column actor_id text check (length(actor_id) <= 200);
update remote_unlocks set actor_type = case when user_id is null then 'api_key' else 'user' end::actor_type,
                          actor_id = user_id::text;
alter table remote_unlocks alter column actor_type set not null;
-- When the status last changed (the provider's answer, its action read later, the door's entry).
alter table remote_unlocks add column updated_at timestamptz not null default now();
