-- Failures that sending the same code again cannot cure: the desk re-issues the key, or someone changes the room's
-- doors.
CREATE OR REPLACE FUNCTION public.app_door_failure_is_final(p_code text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'pg_catalog'
AS $function$
  select coalesce(p_code, '') in ('duplicate_code_on_device', 'offline_lock_needs_single_door', 'offline_codes_unsupported',
    'invalid_device_id', 'invalid_code_id', 'ambiguous_codes', 'code_device_mismatch', 'invalid_code_length',
    'code_too_simple', 'not_supported_by_device', 'invalid_parameter', 'invalid_input')
$function$;
