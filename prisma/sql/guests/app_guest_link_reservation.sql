-- A guest finds the link through guest_link_tokens, then reads within the link's tenant; the guest policies name the
-- tenant too, so every read of a guest page stays on one shard.
CREATE OR REPLACE FUNCTION public.app_guest_link_reservation()
 RETURNS TABLE(tenant_id uuid, reservation_id uuid, status reservation_status)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select gl.tenant_id, gl.reservation_id, r.status
    from guest_link_tokens lt
    join guest_links gl on gl.tenant_id = lt.tenant_id and gl.id = lt.guest_link_id
    join reservations r on r.tenant_id = gl.tenant_id and r.id = gl.reservation_id
   where lt.token_hash = app_guest_token_hash()
     and gl.ended_at is null
     and gl.expires_at > now()
     and r.guest_id is not null
$function$;
