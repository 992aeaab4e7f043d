-- The session's user (app.user_id), for row-level security policies.
CREATE OR REPLACE FUNCTION public.app_current_user()
 RETURNS uuid
 LANGUAGE sql
 STABLE
BEGIN ATOMIC
 SELECT (NULLIF(current_setting('app.user_id'::text, true), ''::text))::uuid AS "nullif";
END;
