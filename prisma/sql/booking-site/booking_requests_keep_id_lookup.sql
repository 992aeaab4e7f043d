-- Trigger: keeps booking_request_ids (a request id → its tenant, for the public confirmation) in step.
CREATE OR REPLACE FUNCTION public.booking_requests_keep_id_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op = 'DELETE' then
    delete from booking_request_ids where booking_request_id = old.id and tenant_id = old.tenant_id;
  else
    insert into booking_request_ids (booking_request_id, tenant_id) values (new.id, new.tenant_id);
  end if;
  return null;
end $function$;
