-- Trigger: keeps guest_link_tokens (the token-to-link lookup) in step with guest_links.
CREATE OR REPLACE FUNCTION public.guest_links_keep_token_lookup()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    delete from guest_link_tokens where token_hash = old.token_hash and tenant_id = old.tenant_id and guest_link_id = old.id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    insert into guest_link_tokens (token_hash, tenant_id, guest_link_id) values (new.token_hash, new.tenant_id, new.id);
  end if;
  return null;
end $function$;
