-- Audit rows, one shape for every writer in SQL.
CREATE OR REPLACE FUNCTION public.app_audit(p_tenant_id uuid, p_actor_type actor_type, p_actor_id text, p_actor_label text, p_action text, p_subject_type text, p_subject_id uuid, p_room_id uuid, p_reason text, p_metadata jsonb DEFAULT '{}'::jsonb)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  insert into audit_events (tenant_id, actor_type, actor_id, actor_label, action, subject_type, subject_id, room_id, reason, metadata)
  values (p_tenant_id, p_actor_type, p_actor_id, p_actor_label, p_action, p_subject_type, p_subject_id, p_room_id, p_reason, coalesce(p_metadata, '{}'));
$function$;
