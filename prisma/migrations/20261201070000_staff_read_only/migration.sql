-- Staff write only through the domain's functions (issue 12, item 12). app_authenticated could
-- INSERT and UPDATE access_keys, reservations, check-ins, guest links and more directly, bypassing
-- the functions that audit the change and queue the lock commands (a key revived or stretched by
-- hand would never reach the lock's removal). Every staff write already runs as the service role
-- scoped to the tenant (decision 002); staff sessions read.
revoke insert, update, delete, truncate on all tables in schema public from app_authenticated;
