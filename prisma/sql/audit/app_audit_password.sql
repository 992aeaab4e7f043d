-- Audits a password change in every tenant the account belongs to (each operator sees it).
CREATE OR REPLACE FUNCTION public.app_audit_password(p_user_id uuid, p_action text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  select app_audit(m.tenant_id, 'user', u.id::text, coalesce(nullif(u.name, ''), u.email), p_action, 'user', u.id,
                   null, null, '{}'::jsonb)
    from memberships m join users u on u.id = m.user_id
   where m.user_id = p_user_id
$function$;
