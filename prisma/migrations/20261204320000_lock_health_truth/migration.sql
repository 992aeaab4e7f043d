-- Issue 28, item 11 (c): lock health tells the truth. Why a lock is not online, as its provider says:
-- the lock itself (`device_offline`), the gateway or bridge it is reached through (`gateway_offline`:
-- TTLock keeps saying a lock "has a gateway" for half an hour after that gateway went), no gateway
-- at all (`no_gateway`), or the provider no longer lists it (`missing`). Null while online or unknown.
alter table locks add column offline_reason text
  check (offline_reason in ('device_offline', 'gateway_offline', 'no_gateway', 'missing'));
