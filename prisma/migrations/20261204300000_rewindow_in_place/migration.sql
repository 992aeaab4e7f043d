-- Issue 28, item 11 (b): a stay's new window reaches its lock by changing the code in place
-- (Seam access_codes.update, TTLock /v3/keyboardPwd/change), never by taking the code off the door
-- while the guest may be using it. A re-window the lock could not take is said on the door, on the
-- desk and on the guest page, and counted on an incident (lock_rewindow_failed:<lock id>).

-- The provider's failure code of the last re-window that did not reach the lock; null once one does.
-- While `rewindow` is true a new attempt is under way (a later date change, a lock back online).
alter table key_lock_codes add column rewindow_error text;

-- The guest page reads, for its own keys only, whether a door's code still carries an old window.
grant select (tenant_id, key_id, rewindow, rewindow_error) on key_lock_codes to app_anon;
create policy guest_link on key_lock_codes to app_anon
  using (tenant_id = (select app_guest_tenant_id()) and key_id in (select k.id from access_keys k));
