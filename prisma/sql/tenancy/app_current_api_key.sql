-- The API key the transaction acts for (app.api_key_id, set beside the tenant for /api/v1 requests), or null.
CREATE OR REPLACE FUNCTION public.app_current_api_key()
 RETURNS uuid
 LANGUAGE sql
 STABLE
BEGIN ATOMIC
 SELECT (NULLIF(current_setting('app.api_key_id'::text, true), ''::text))::uuid AS "nullif";
END;
