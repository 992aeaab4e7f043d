-- Trigger: append-only: no role may change or remove an audit row (privileges say so too).
CREATE OR REPLACE FUNCTION public.audit_events_append_only()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'pg_catalog'
AS $function$
begin
  raise exception 'audit_events is append-only (% refused)', tg_op using errcode = 'UA001';
end $function$;
