-- The session's guest link token hash (app.guest_token_hash), for the guest policies.
CREATE OR REPLACE FUNCTION public.app_guest_token_hash()
 RETURNS bytea
 LANGUAGE sql
 STABLE
BEGIN ATOMIC
 SELECT decode(NULLIF(current_setting('app.guest_token_hash'::text, true), ''::text), 'hex'::text) AS decode;
END;
