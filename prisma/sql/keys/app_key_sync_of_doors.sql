-- The key's vendor_sync is what its doors say, together: a live key is synced when every door of its room has the code
-- set, failed when any failed; an ended key is synced when no door can still open with a code we can remove.
CREATE OR REPLACE FUNCTION public.app_key_sync_of_doors(p_tenant_id uuid, p_key_id uuid)
 RETURNS vendor_sync
 LANGUAGE sql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  -- A door taken off the room while the key lives (detached) is on its way off its lock: it no longer says
  -- whether the guest's code opens the room; its removal counts on the lock's incident when it fails.
  select case
           when k.status in ('pre_issued', 'active') then
             case when bool_or(c.state = 'failed') filter (where not c.detached) then 'failed'
                  when coalesce(bool_and(c.state = 'set') filter (where not c.detached), false) then 'synced'
                  else 'pending' end
           else
             case when bool_or(c.state = 'remove_failed') then 'failed'
                  when bool_and(c.state in ('removed', 'valid_until_end')) then 'synced'
                  else 'pending' end
         end::vendor_sync
    from access_keys k join key_lock_codes c on c.tenant_id = k.tenant_id and c.key_id = k.id
   where k.tenant_id = p_tenant_id and k.id = p_key_id
   group by k.status
$function$;
