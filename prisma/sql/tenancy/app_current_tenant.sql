-- The session's tenant (app.tenant_id), for row-level security policies; inlinable.
CREATE OR REPLACE FUNCTION public.app_current_tenant()
 RETURNS uuid
 LANGUAGE sql
 STABLE
BEGIN ATOMIC
 SELECT (NULLIF(current_setting('app.tenant_id'::text, true), ''::text))::uuid AS "nullif";
END;
