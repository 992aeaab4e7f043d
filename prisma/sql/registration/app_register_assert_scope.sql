-- The register functions serve only the transaction's own tenant, and a guest link only its own stay (42501).
CREATE OR REPLACE FUNCTION public.app_register_assert_scope(p_tenant_id uuid, p_reservation uuid)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'pg_catalog', 'public'
AS $function$
begin
  if app_current_tenant() is not null then
    if p_tenant_id is distinct from app_current_tenant() then
      raise exception 'this transaction is scoped to another tenant' using errcode = '42501';
    end if;
  elsif app_guest_token_hash() is not null then
    if p_reservation is null or p_reservation is distinct from app_guest_reservation_id()
       or p_tenant_id is distinct from app_guest_tenant_id() then
      raise exception 'a guest link reads only its own stay' using errcode = '42501';
    end if;
  end if;
end $function$;
